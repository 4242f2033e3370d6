/** Whether a role may edit. */
export function canEdit(role: string): boolean {
  return role === "admin";
}

/** The library's version, checked by scripts/check-version.ts. */
export const version = "1.2.0";

/** Whether v is a release version (used only by scripts/check-version.ts). */
export function isRelease(v: string): boolean {
  return /^\d+\.\d+\.\d+$/.test(v);
}

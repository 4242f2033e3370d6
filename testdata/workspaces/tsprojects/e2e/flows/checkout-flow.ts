/** An end-to-end flow, in a tsconfig.json project of its own. */
export function runCheckoutFlow(items: number): number {
  return items * 2;
}

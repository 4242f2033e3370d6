/** The TypeScript ledger. */
export interface Ledger {
  entries: number[];
}

/** Sums a ledger's entries. */
export function tallyTsLedger(l: Ledger): number {
  return l.entries.reduce((a, b) => a + b, 0);
}

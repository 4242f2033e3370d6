const perMetre: Record<string, number> = { mm: 1000, cm: 100, m: 1 };

/** Converts a length such as "30cm" or "2m" into metres. */
export function parse(length: string): number {
  const match = /^([0-9.]+)(mm|cm|m)$/.exec(length);
  if (match === null) {
    throw new Error(`units: cannot parse ${JSON.stringify(length)}`);
  }
  return Number(match[1]) / perMetre[match[2]!]!;
}

export function Count({ n }: { n: number }) {
  const label: string = n;
  return <b>{label}</b>;
}

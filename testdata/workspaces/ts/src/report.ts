import { describe, totalArea, type Shape } from "./shape";

/** Describes every shape on its own line and ends with the total area. */
export function report(shapes: readonly Shape[]): string {
  const lines = shapes.map((s) => describe(s));
  lines.push(`total area=${totalArea(shapes).toFixed(2)}`);
  return lines.join("\n");
}

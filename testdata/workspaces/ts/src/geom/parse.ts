import { Circle } from "../circle";
import { Rect } from "../rect";
import type { Shape } from "../shape";

/** Reads a shape specification such as "circle 2" or "rect 3 4". */
export function parse(spec: string): Shape {
  const [kind, ...rest] = spec.trim().split(/\s+/);
  const nums = rest.map(Number);
  if (kind === "circle" && nums.length === 1) {
    return new Circle(nums[0]!);
  }
  if (kind === "rect" && nums.length === 2) {
    return new Rect(nums[0]!, nums[1]!);
  }
  throw new Error(`geom: cannot parse ${JSON.stringify(spec)}`);
}

/** @import { Shape } from "./shape.js" */
import { describe } from "./shape.js";

/**
 * A label showing one shape's description.
 * @param {{ shape: Shape }} props
 */
export function Badge({ shape }) {
  return <span className="badge">{describe(shape)}</span>;
}

export function BadgeList({shapes}) {
  return <ul>{shapes.map((s) => <li><Badge shape={s} /></li>)}</ul>;
}

import { Circle } from "./circle.js";
import { Rect } from "./rect.mjs";
import { describe } from "./shape.js";
import units from "./units.cjs";

const shapes = [new Circle(1), new Rect(2, 3)];
for (const shape of shapes) {
  console.log(describe(shape));
}
console.log(units.toCentimetres(12));

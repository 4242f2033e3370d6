import { Shape } from "./shape.js";

export class Circle extends Shape {
  /** @param {number} radius */
  constructor(radius) {
    super();
    this.radius = radius;
  }

  area() {
    return Math.PI * this.radius ** 2;
  }
}

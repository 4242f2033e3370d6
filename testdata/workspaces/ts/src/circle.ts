import type { Shape } from "./shape";

/** A circle of the given radius. */
export class Circle implements Shape {
  constructor(readonly radius: number) {}

  area(): number {
    return Math.PI * this.radius * this.radius;
  }

  perimeter(): number {
    return 2 * Math.PI * this.radius;
  }
}

import type { Shape } from "./shape";

/** An axis-aligned rectangle. */
export class Rect implements Shape {
  constructor(
    readonly width: number,
    readonly height: number,
  ) {}

  area(): number {
    return this.width * this.height;
  }

  perimeter(): number {
    return 2 * (this.width + this.height);
  }
}

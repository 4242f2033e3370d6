import { Shape } from "./shape.js";

export class Rect extends Shape {
  /**
   * @param {number} width
   * @param {number} height
   */
  constructor(width, height) {
    super();
    this.width = width;
    this.height = height;
  }

  area() {
    return this.width * this.height;
  }
}

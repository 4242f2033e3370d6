/**
 * A shape with an area.
 * @abstract
 */
export class Shape {
  /**
   * The area of the shape.
   * @returns {number}
   */
  area() {
    throw new Error("not implemented");
  }
}

/**
 * Describes a shape in one line.
 * @param {Shape} shape
 * @returns {string}
 */
export function describe(shape) {
  return `${shape.constructor.name} with area ${shape.area().toFixed(2)}`;
}

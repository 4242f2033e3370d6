/** A closed two-dimensional figure. */
export interface Shape {
  /** Returns the area enclosed by the shape. */
  area(): number;
  /** Returns the length of the shape's boundary. */
  perimeter(): number;
}

/**
 * Returns a one-line, human-readable summary of a shape.
 * @param shape the shape to describe
 */
export function describe(shape: Shape): string {
  return `${shape.constructor.name} area=${shape.area().toFixed(2)} perimeter=${shape.perimeter().toFixed(2)}`;
}

/** Returns the sum of the areas of all shapes. */
export function totalArea(shapes: readonly Shape[]): number {
  return shapes.reduce((sum, s) => sum + s.area(), 0);
}

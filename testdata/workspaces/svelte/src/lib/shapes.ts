/** A shape with an area. */
export interface Shape {
  area(): number;
}

export class Circle implements Shape {
  constructor(public radius: number) {}

  area(): number {
    return Math.PI * this.radius ** 2;
  }
}

export class Square implements Shape {
  constructor(public side: number) {}

  area(): number {
    return this.side * this.side;
  }
}

/** Describes a shape in one line. */
export function describe(shape: Shape): string {
  return `${shape.constructor.name} with area ${shape.area().toFixed(2)}`;
}

// Sizes: two classes with an area method and a function named area in one
// file, and a recursive helper called through two levels (the code tools'
// fixture).

/** A square of the given side. */
export class Square {
  constructor(readonly side: number) {}

  /** Returns the square's area. */
  area(): number {
    return this.side * this.side;
  }
}

/** A filled circle of the given radius. */
export class Disk {
  constructor(readonly radius: number) {}

  /** Returns the disk's area. */
  area(): number {
    return 3.14159 * this.radius * this.radius;
  }
}

/** Returns the area of a width × height rectangle. */
export function area(width: number, height: number): number {
  return width * height;
}

/** Returns how many times n can be halved before it reaches 1. */
export function depth(n: number): number {
  if (n <= 1) {
    return 0;
  }
  return 1 + depth(n / 2);
}

/** Returns the sum of the depths of all sizes. */
export function levels(sizes: readonly number[]) {
  let total = 0;
  for (const n of sizes) {
    total += depth(n);
  }
  return total;
}

/** The area of a rectangle as wide as the sizes' levels and half as high. */
export function summary(sizes: readonly number[]): number {
  const width = levels(sizes);
  return area(width, width / 2);
}

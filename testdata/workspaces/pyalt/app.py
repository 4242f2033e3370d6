"""Prints the total area of a few shapes."""

from geometry.measure import total_area
from geometry.shapes import Disk, Square


def main() -> None:
    shapes = [Square(2), Disk(1)]
    print(total_area(shapes))


if __name__ == "__main__":
    main()

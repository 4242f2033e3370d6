"""Print a small report about a few shapes."""

import shapes.units as units
from shapes import geom
from shapes.base import Shape
from shapes.base import describe as summarize
from shapes.base import total_area
from shapes.rect import Rect
from shapes.report import report


def main() -> None:
    side = units.parse("30cm")
    circle = geom.parse("circle 2")
    all_shapes: list[Shape] = [circle, Rect(side, side)]
    print(summarize(circle))
    print("🚀🚀 total:", total_area(all_shapes))
    print(report(all_shapes))


if __name__ == "__main__":
    main()

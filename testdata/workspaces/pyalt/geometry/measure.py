"""Measures over many shapes."""

from collections.abc import Iterable

from geometry.shapes import Shape


def total_area(shapes: Iterable[Shape]) -> float:
    """Return the sum of the areas of all shapes."""
    return sum(s.area() for s in shapes)

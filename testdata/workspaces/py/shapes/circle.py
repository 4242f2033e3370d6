"""Circles."""

import math

from shapes.base import Shape


class Circle(Shape):
    """A circle of the given radius."""

    def __init__(self, radius: float) -> None:
        self.radius = radius

    def area(self) -> float:
        return math.pi * self.radius * self.radius

    def perimeter(self) -> float:
        return 2 * math.pi * self.radius

"""Axis-aligned rectangles."""

from shapes.base import Shape


class Rect(Shape):
    """An axis-aligned rectangle."""

    def __init__(self, width: float, height: float) -> None:
        self.width = width
        self.height = height

    def area(self) -> float:
        return self.width * self.height

    def perimeter(self) -> float:
        return 2 * (self.width + self.height)

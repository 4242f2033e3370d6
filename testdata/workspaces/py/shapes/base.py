"""The abstract Shape type and helpers that work on any shape."""

from abc import ABC, abstractmethod
from collections.abc import Iterable


class Shape(ABC):
    """A closed two-dimensional figure."""

    @abstractmethod
    def area(self) -> float:
        """Return the area enclosed by the shape."""

    @abstractmethod
    def perimeter(self) -> float:
        """Return the length of the shape's boundary."""


def describe(shape: Shape) -> str:
    """Return a one-line, human-readable summary of a shape."""
    return f"{type(shape).__name__} area={shape.area():.2f} perimeter={shape.perimeter():.2f}"


def total_area(shapes: Iterable[Shape]) -> float:
    """Return the sum of the areas of all shapes."""
    return sum(s.area() for s in shapes)

"""Plane figures."""

from abc import ABC, abstractmethod


class Shape(ABC):
    """A closed plane figure."""

    @abstractmethod
    def area(self) -> float:
        """Return the area enclosed by the shape."""


class Square(Shape):
    """A square given by its side."""

    def __init__(self, side: float) -> None:
        self.side = side

    def area(self) -> float:
        return self.side * self.side


class Disk(Shape):
    """A disk given by its radius."""

    def __init__(self, radius: float) -> None:
        self.radius = radius

    def area(self) -> float:
        return 3.14159 * self.radius * self.radius

"""Sizes: two classes with an area method and a function named area in one
file, and a recursive helper called through two levels (the code tools'
fixture)."""


class Square:
    """A square of the given side."""

    def __init__(self, side: float) -> None:
        self.side = side

    def area(self) -> float:
        """Return the square's area."""
        return self.side * self.side


class Disk:
    """A filled circle of the given radius."""

    def __init__(self, radius: float) -> None:
        self.radius = radius

    def area(self) -> float:
        """Return the disk's area."""
        return 3.14159 * self.radius * self.radius


def area(width: float, height: float) -> float:
    """Return the area of a width x height rectangle."""
    return width * height


def depth(n: int) -> int:
    """Return how many times n can be halved before it reaches 1."""
    if n <= 1:
        return 0
    return 1 + depth(n // 2)


def levels(sizes: list[int]) -> int:
    """Return the sum of the depths of all sizes."""
    total = 0
    for n in sizes:
        total += depth(n)
    return total


def summary(sizes: list[int]) -> float:
    """The area of a rectangle as wide as the sizes' levels and half as high."""
    width = levels(sizes)
    return area(width, width / 2)

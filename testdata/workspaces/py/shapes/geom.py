"""Reading shapes from short textual specifications."""

from shapes.base import Shape
from shapes.circle import Circle
from shapes.rect import Rect


def parse(spec: str) -> Shape:
    """Read a shape specification such as "circle 2" or "rect 3 4"."""
    kind, *rest = spec.split()
    nums = [float(n) for n in rest]
    if kind == "circle" and len(nums) == 1:
        return Circle(nums[0])
    if kind == "rect" and len(nums) == 2:
        return Rect(nums[0], nums[1])
    raise ValueError(f"geom: cannot parse {spec!r}")

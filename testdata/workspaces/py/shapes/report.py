"""Plain-text reports about shapes."""

from collections.abc import Sequence

from shapes.base import Shape, describe, total_area


def report(shapes: Sequence[Shape]) -> str:
    """Describe every shape on its own line and end with the total area."""
    lines = [describe(s) for s in shapes]
    lines.append(f"total area={total_area(shapes):.2f}")
    return "\n".join(lines)

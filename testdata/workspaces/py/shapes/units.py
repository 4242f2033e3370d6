"""Lengths written with a unit suffix."""

PER_METRE = {"mm": 1000.0, "cm": 100.0, "m": 1.0}


def parse(length: str) -> float:
    """Convert a length such as "30cm" or "2m" into metres."""
    for suffix in ("mm", "cm", "m"):
        if length.endswith(suffix):
            return float(length[: -len(suffix)]) / PER_METRE[suffix]
    raise ValueError(f"units: {length!r} has no unit")

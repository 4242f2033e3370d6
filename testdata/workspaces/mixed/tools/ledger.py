"""The Python part of a workspace with three languages."""


class Ledger:
    """The Python ledger."""

    def __init__(self, entries: list[int]) -> None:
        self.entries = entries


def tally_py_ledger(ledger: Ledger) -> int:
    """Sums a ledger's entries."""
    return sum(ledger.entries)

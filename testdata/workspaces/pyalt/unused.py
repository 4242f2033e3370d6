"""The linter's one problem: an import nothing uses."""

import os


def greeting() -> str:
    return "hello"

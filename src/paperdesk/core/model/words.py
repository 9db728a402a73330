"""Words for people: counts with the right plural."""

from __future__ import annotations


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 paper``, ``2 papers``; ``many`` for plurals that do not add an s."""
    return f"{n} {word}" if n == 1 else f"{n} {many or word + 's'}"

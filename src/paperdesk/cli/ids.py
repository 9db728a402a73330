"""Numbers on the command line: ids and counts, checked before they reach SQLite.

SQLite's integers stop at 2**63 - 1 and Python refuses to read numbers of
thousands of digits; an id beyond either would otherwise end in a traceback.
Each checker is an argparse ``type`` (a bad value is a usage error, exit 2).
"""

from __future__ import annotations

import argparse
import re

LARGEST = 2**63 - 1  # SQLite's largest integer, so the largest possible id
_WHOLE = re.compile(r"[+-]?[0-9]+")


def _shown(text: str, width: int = 24) -> str:
    return repr(text if len(text) <= width else text[:width - 1] + "…")


def number(text: str, what: str, low: int, high: int = LARGEST) -> int:
    """``text`` as a whole number from ``low`` to ``high``, or ArgumentTypeError."""
    text = text.strip()
    value = int(text) if _WHOLE.fullmatch(text) and len(text) <= 30 else None
    if value is None or not low <= value <= high:
        raise argparse.ArgumentTypeError(
            f"{_shown(text)} is not {what} (a whole number from {low} to {high})")
    return value


def paper_id(text: str) -> int:
    return number(text, "a paper id", 1)


def note_id(text: str) -> int:
    return number(text, "a note id", 1)


def merge_id(text: str) -> int:
    return number(text, "a merge id", 1)


def attachment_id(text: str) -> int:
    return number(text, "an attachment id", 1)


def year(text: str) -> int:
    """A whole number; the library says whether it is a year it takes."""
    try:
        return number(text, "a year", -LARGEST)
    except argparse.ArgumentTypeError:
        from paperdesk.core.api import MAX_YEAR, MIN_YEAR  # loads curation: only when said

        raise argparse.ArgumentTypeError(f"{_shown(text.strip())} is not a year (a whole "
                                         f"number from {MIN_YEAR} to {MAX_YEAR})") from None


def count(text: str) -> int:
    return number(text, "a count", 0)


def position(text: str) -> int:
    return number(text, "a position", 1)


def is_paper_id(text: str) -> bool:
    try:
        paper_id(text)
    except argparse.ArgumentTypeError:
        return False
    return True


def paper_id_list(text: str) -> list[int]:
    """"1,2,3" as paper ids."""
    try:
        ids = [paper_id(part) for part in text.replace(" ", "").split(",") if part]
    except argparse.ArgumentTypeError as exc:
        raise argparse.ArgumentTypeError(f"not a list of paper ids: {exc}") from None
    if not ids:
        raise argparse.ArgumentTypeError("no paper ids given")
    return ids

"""Small pieces the curation modules share: the error, the clock, id lists in SQL."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from paperdesk.core.changes import Result
from paperdesk.core.errors import PaperDeskError


class CurationError(PaperDeskError):
    """A curation value is not acceptable (a rating of 7, an empty tag...)."""


@dataclass(frozen=True)
class Changed(Result):
    """How many papers a rating or a status change changed."""

    changed: int


@dataclass(frozen=True)
class Tagged(Result):
    tagged: int


@dataclass(frozen=True)
class Untagged(Result):
    untagged: int


@dataclass(frozen=True)
class TagsMerged(Result):
    moved: int


@dataclass(frozen=True)
class NoteResult(Result):
    note_id: int


@dataclass(frozen=True)
class Deleted(Result):
    deleted: int


@dataclass(frozen=True)
class KeySet(Result):
    citekey: str


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def load_ids(db: Any, ids: Sequence[int]) -> None:
    """Fill the temporary table ``temp.curation_ids`` (id, ord) for set-based updates."""
    db.execute("CREATE TEMP TABLE IF NOT EXISTS curation_ids "
               "(id INTEGER PRIMARY KEY, ord INTEGER NOT NULL)")
    db.execute("DELETE FROM temp.curation_ids")
    db.conn.executemany("INSERT INTO temp.curation_ids (id, ord) VALUES (?, ?)",
                        [(pid, n) for n, pid in enumerate(ids)])


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"

"""The typed results of the curation edits (``changes.result``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from paperdesk.core.db import database
from paperdesk.core.db.changes import Result
from paperdesk.core.db.database import Database


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


# Kept importable from here for code written before they had modules of their own.
from paperdesk.core.model.clock import now as now  # noqa: E402
from paperdesk.core.model.text import plural as plural  # noqa: E402


def load_ids(db: Database, ids: Sequence[int]) -> None:
    """``database.load_ids`` into ``temp.curation_ids``, the table's older name."""
    database.load_ids(db, ids, "curation_ids")
from paperdesk.core.model.errors import CurationError as CurationError  # noqa: E402

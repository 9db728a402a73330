"""The typed results of the curation edits (``changes.result``)."""

from __future__ import annotations

from dataclasses import dataclass

from paperdesk.core.changes import Result


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

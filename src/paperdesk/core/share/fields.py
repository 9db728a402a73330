"""What of a paper travels, and how each part merges in the document.

A paper is a map of registers (``SHARED`` and, for a library shared by one person,
``PERSONAL``: the last writer of each wins), a map of tags used as a set (name key ->
name), and a map of notes (stable id -> text, merged as text). The reading queue is a
movable list of paper ids. In a lab (``share --person NAME``) each person's
``PERSONAL`` fields and queue are a map and a list of their own under ``people``.
What stays on each computer: its local ids, ``modified`` stamps, the positions the
queue is written as, where a paper was imported from (``bib_source``, ``bib_file``),
the window's settings and the kept-in-sync files.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

SHARED = ("title", "abstract", "title_key", "authors", "author_count", "organization",
          "organization_handle", "published", "year", "year_inferred", "arxiv_id", "doi",
          "url", "citekey", "deleted_at", "bib_type", "bib_fields", "sources", "github",
          "project_page", "upvotes", "hub_upvotes", "seen_count", "added", "seen_at")
PERSONAL = ("rating", "status", "read_at")
FROZEN = "frozen"  # whether the paper's citation key has left PaperDesk
COLUMNS = (*SHARED, *PERSONAL)

# A register no computer wrote yet reads as the column's default.
DEFAULTS: dict[str, Any] = {"abstract": "", "authors": "[]", "year_inferred": 0,
                            "rating": 0, "status": "unread", "seen_count": 0, FROZEN: 0}

# The document's roots. Each paper's parts are root containers named by its stable id
# (a root is the same container on every computer, so two computers that make the same
# paper at once merge its registers, where two maps put under one key would not).
PAPER = "p:"      # p:UID, the registers; GONE set when the trash was emptied of it
TAG_SET = "t:"    # t:UID, tag key -> name
NOTE_MAP = "n:"   # n:UID, note id -> text
OWN = "o:"        # o:PERSON:UID, a person's own registers
QUEUE = "queue"   # the reading queue; a person's is "queue:PERSON"
MERGED = "merged"  # merged paper's id -> the kept paper's id
GONE = "gone"
TAGS = "tags"
NOTES = "notes"


def value(fields: dict[str, Any], name: str) -> Any:
    got = fields.get(name)
    return DEFAULTS.get(name) if got is None else got


def values(fields: dict[str, Any], names: tuple[str, ...]) -> dict[str, Any]:
    """``value`` of each of ``names`` at once (the defaults filled after one pass)."""
    out = {c: fields.get(c) for c in names}
    for c, default in _defaulted(names):
        if out[c] is None:
            out[c] = default
    return out


_DEFAULTED: dict[tuple[str, ...], list[tuple[str, Any]]] = {}


def _defaulted(names: tuple[str, ...]) -> list[tuple[str, Any]]:
    got = _DEFAULTED.get(names)
    if got is None:
        got = _DEFAULTED[names] = [(c, DEFAULTS[c]) for c in names if c in DEFAULTS]
    return got


def live_marks(marks: Mapping[str, Any]) -> dict[str, str]:
    """The merge marks that hold. Two computers may merge two papers into each other
    (or round a longer ring) before they meet: the marks then make a cycle, in which
    the paper with the lowest stable id stays a paper and the others are merged into
    it, alike everywhere (left as they are, every paper of the ring was merged away)."""
    out = {str(k): str(v) for k, v in marks.items()}
    for start in sorted(out):
        path: list[str] = []
        uid = start
        while uid in out and uid not in path:
            path.append(uid)
            uid = out[uid]
        if uid in path:
            del out[min(path[path.index(uid):])]
    return out


def kept_paper(uid: str, merged: dict[str, str]) -> str:
    """The paper ``uid`` ended in, following merges of merged papers (``live_marks``
    has no cycle; one is stopped where it closes)."""
    seen = {uid}
    while uid in merged and merged[uid] not in seen:
        uid = merged[uid]
        seen.add(uid)
    return uid

"""The keys a paper is also known by in documents: biblatex's ``ids`` field.

A key that left PaperDesk is retired when its paper is merged into another or given
another key (``retired_keys``, migration 0018): ``\\cite{K}`` in a document written
before must still print the work. biblatex (with biber) reads ``ids = {K}`` on an entry
as another name of that entry, so a biblatex export writes each retired key on the
paper that is now that work: the paper itself when it was re-keyed, the paper it was
merged into (through every later merge) when it was merged away. A key retired with a
paper deleted for good names nothing; a retired key some paper holds now (typed by hand)
is that paper's, never an alias. BibTeX has no such field: its exports leave it out.
"""

from __future__ import annotations

import json
from typing import Any

from paperdesk.core.bibtex.citekey import valid_key

Aliases = dict[int, str]  # paper id -> the value of its ids field ("k1,k2")


def aliases(db: Any) -> Aliases:
    """Every paper's aliases: the retired keys that name its work and no paper holds."""
    retired = db.execute(
        "SELECT r.key, r.paper_id FROM retired_keys r WHERE NOT EXISTS (SELECT 1 FROM "
        "papers p WHERE lower(p.citekey) = lower(r.key)) ORDER BY r.key").fetchall()
    if not retired:
        return {}
    kept_as: dict[int, int] = {}  # a paper merged away -> the paper it went into
    for kept, merged in db.execute("SELECT kept_id, merged_ids FROM merges WHERE "
                                   "undone_at IS NULL AND json_valid(merged_ids) ORDER BY id"):
        ids = json.loads(merged)
        if isinstance(ids, list):  # a damaged row names nobody
            kept_as.update((i, kept) for i in ids if isinstance(i, int))
    wanted = {pid for _key, pid in retired} | set(kept_as.values())
    present = {r[0] for r in db.execute(
        "SELECT p.id FROM json_each(?) j JOIN papers p ON p.id = j.value",
        [json.dumps(sorted(wanted))])}
    out: dict[int, list[str]] = {}
    for key, pid in retired:
        if not valid_key(key):  # one a .bib file gave as written: not in a list of keys
            continue
        seen = set()
        while pid not in present and pid in kept_as and pid not in seen:
            seen.add(pid)
            pid = kept_as[pid]
        if pid in present:
            out.setdefault(pid, []).append(key)
    return {pid: ",".join(keys) for pid, keys in out.items()}


def ids_line(value: str) -> str:
    """The entry's line for ``value``."""
    return "\tids = {" + value + "},"

"""The keys a paper is also known by in documents: biblatex's ``ids`` field.

A key that left PaperDesk is retired when its paper is merged into another or given
another key (``retired_keys``, migration 0018; every paper it named, ``retired_owners``,
0021): ``\\cite{K}`` in a document written before must still print the work. biblatex
(with biber) reads ``ids = {K}`` on an entry as another name of that entry, so a biblatex
export writes a retired key on the paper that is now that work: the paper itself when it
was re-keyed, the paper it was merged into (through every later merge) when it was
merged away. Only when every paper the key ever named leads to that one paper: a key
that named a paper since deleted for good, or two papers that are still two, cites
nothing (biber says so) rather than one of them. Never a key a paper holds, nor one an
entry's own ``ids`` field gives (both compared ignoring case). BibTeX has no such field:
its exports leave it out.
"""

from __future__ import annotations

import json
import re

from paperdesk.core.bibtex.citekey import valid_key
from paperdesk.core.db.database import Database

Aliases = dict[int, str]  # paper id -> the value of its ids field ("k1,k2")

_KEY_IN_IDS = re.compile(r'[^\s,{}"]+')


def aliases(db: Database) -> Aliases:
    """Every paper's aliases: the retired keys whose every paper is now that one, that
    no paper holds and no entry's own ``ids`` gives."""
    owners = db.execute(
        "SELECT o.key, o.paper_id FROM retired_owners o WHERE NOT EXISTS (SELECT 1 FROM "
        "papers p WHERE lower(p.citekey) = lower(o.key)) ORDER BY o.key, o.paper_id"
    ).fetchall()
    if not owners:
        return {}
    given = _given_by_entries(db)
    kept_as = _kept_as(db)
    wanted = {pid for _key, pid in owners if type(pid) is int} | set(kept_as.values())
    present = {r[0] for r in db.execute(
        "SELECT p.id FROM json_each(?) j JOIN papers p ON p.id = j.value",
        [json.dumps(sorted(wanted))])}
    now: dict[str, tuple[str, set[int | None]]] = {}  # folded key -> (key, where it leads)
    for key, pid in owners:
        usable = type(pid) is int and isinstance(key, str) and valid_key(key)
        entry = now.setdefault(key.lower() if isinstance(key, str) else "", (key, set()))
        entry[1].add(_lead(pid, kept_as, present) if usable else None)
    out: dict[int, list[str]] = {}
    for folded, (key, leads) in now.items():
        if folded and folded not in given and len(leads) == 1 and None not in leads:
            out.setdefault(next(iter(leads)), []).append(key)  # type: ignore[arg-type]
    return {pid: ",".join(keys) for pid, keys in out.items()}


def _kept_as(db: Database) -> dict[int, int]:
    """A paper merged away -> the paper it went into (merges not undone, in order); a
    damaged row names nobody."""
    kept_as: dict[int, int] = {}
    for kept, merged in db.execute("SELECT kept_id, merged_ids FROM merges WHERE "
                                   "undone_at IS NULL AND json_valid(merged_ids) ORDER BY id"):
        ids = json.loads(merged)
        if type(kept) is int and isinstance(ids, list):
            kept_as.update((i, kept) for i in ids if type(i) is int)
    return kept_as


def _lead(pid: int, kept_as: dict[int, int], present: set[int]) -> int | None:
    """The paper that is ``pid``'s work now: itself, or the one it was merged into
    through every later merge; None when that paper is gone."""
    seen: set[int] = set()
    while pid not in present and pid in kept_as and pid not in seen:
        seen.add(pid)
        pid = kept_as[pid]
    return pid if pid in present else None


def _given_by_entries(db: Database) -> set[str]:
    """The keys (folded) that entries' own ``ids`` fields give, as a .bib file wrote them."""
    given: set[str] = set()
    for (value,) in db.execute(
            "SELECT json_extract(bib_fields, '$.ids') FROM papers WHERE "
            "instr(bib_fields, '\"ids\"') AND json_valid(bib_fields)"):
        if isinstance(value, str):
            given.update(k.lower() for k in _KEY_IN_IDS.findall(value))
    return given


def ids_line(value: str) -> str:
    """The entry's line for ``value``."""
    return "\tids = {" + value + "},"

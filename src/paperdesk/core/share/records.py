"""The library's rows beside the papers' own fields, tags and notes, in the shared
document: a small registry of record kinds (``KINDS``), each a root map of its own
(``r:NAME``) from a record's stable id to its values as JSON text, the last writer of
a record winning on every computer.

A kind says how to ``read`` its records from the library (by the papers' stable ids,
``papers.uid``, never their local ids), which of the document's records the library
can ``hold`` (those whose papers it has), and how to ``write`` what changed through
its tables' writers, inside the exchange's one undoable edit. ``push`` writes what the
library changed since it last matched the document; ``pull`` makes the library what
the document says, after the papers themselves (``apply.pull``).

A record is written exactly as it travels, so what a computer wrote reads back the
same there and is never sent again.
"""

from __future__ import annotations

import json
from typing import Any

import loro

from paperdesk.core.db.database import Database
from paperdesk.core.share import kinds_curation, kinds_digests, kinds_pdfs
from paperdesk.core.share.record_kind import Diff, Ids, Kind, Records

ROOT = "r:"
# In this order: a kind's records may name those of a kind before it.
KINDS: tuple[Kind, ...] = (*kinds_curation.KINDS, *kinds_digests.KINDS, *kinds_pdfs.KINDS)


def change_kinds() -> tuple[str, ...]:
    return tuple(sorted({c for k in KINDS for c in k.changes}))


def in_document(doc: loro.LoroDoc, name: str) -> Records:
    value = doc.get_map(ROOT + name).get_value()
    items = value.items() if isinstance(value, dict) else ()
    return {str(k): json.loads(v) for k, v in items if isinstance(v, str)}


def _text(record: dict[str, Any]) -> str:
    return json.dumps(record, sort_keys=True, ensure_ascii=False)


def push(doc: loro.LoroDoc, db: Database) -> int:
    """Write into ``doc`` the records the library changed since it last matched it
    (``doc`` before what other computers wrote is imported); how many."""
    ids = Ids.of(db)
    n = 0
    for kind in KINDS:
        root = doc.get_map(ROOT + kind.name)
        base = kind.held(in_document(doc, kind.name), ids)
        local = kind.read(db, ids)
        for key, record in local.items():
            if base.get(key) != record:
                root.insert(key, _text(record))
                n += 1
        for key in base.keys() - local.keys():
            root.delete(key)
            n += 1
    if n:
        doc.commit()
    return n


def pull(db: Database, doc: loro.LoroDoc, stamp: str,
         papers: set[int]) -> tuple[set[int], set[str]]:
    """Make the library's records what ``doc`` says, kind by kind in the registry's
    order (a kind's records may name those of a kind before it); the papers touched
    and the change kinds written (the exchange's write says just those: a kind that
    names no papers, such as digests, makes it a change of any paper).
    ``papers``: those the exchange wrote, whose counts of sightings are then made
    from the sightings again (another computer's counts came with its sightings)."""
    touched: set[int] = set()
    kinds: set[str] = set()
    for kind in KINDS:
        ids = Ids.of(db)
        want = kind.held(in_document(doc, kind.name), ids)
        have = kind.read(db, ids)
        diff = Diff(
            added={k: v for k, v in want.items() if k not in have},
            changed={k: (have[k], v) for k, v in want.items() if k in have and have[k] != v},
            removed={k: v for k, v in have.items() if k not in want})
        if diff:
            touched |= kind.write(db, diff, ids, stamp)
            kinds.update(kind.changes)
    kinds_digests.recount(db, touched | papers)
    return touched, kinds

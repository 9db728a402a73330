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
from dataclasses import dataclass, field
from typing import Any

import loro

from paperdesk.core.db import sync_changes
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


@dataclass
class Known:
    """What each kind's records were, in the document and the library alike, at the end
    of the last exchange, and the library's stable ids then (``held`` reads them): the
    next exchange's base, where the document is the one kept since (``kept``) and the
    ids are the same, without reading every record of the document again."""
    ids: Ids
    records: dict[str, Records] = field(default_factory=dict)


def _signalled(kind: Kind) -> bool:
    """Whether every write of the kind's rows is recorded as a change of any paper
    (``sync_changes``: a kind the library's record follows, none whose writes name
    all their papers), so that a record naming only papers says it wrote none."""
    return all(c in sync_changes.SHARED_CONTENT and c not in sync_changes.PRECISE
               for c in kind.changes)


def push(doc: loro.LoroDoc, db: Database, known: Known | None = None,
         quiet: bool = False) -> tuple[int, Known]:
    """Write into ``doc`` the records the library changed since it last matched it
    (``doc`` before what other computers wrote is imported); how many, and the
    library's records as ``pull`` starts from them. ``known``: the last exchange's
    records, the base where the ids are still the same; ``quiet``: the library's
    record of changes says each write since named its papers, so a kind every write
    of which names none (``_signalled``: digests, duplicates) is as it was."""
    ids = Ids.of(db)
    same = known is not None and known.ids == ids
    n = 0
    now = Known(ids)
    for kind in KINDS:
        base = known.records.get(kind.name) if same and known is not None else None
        if base is not None and quiet and _signalled(kind):
            now.records[kind.name] = base
            continue
        root = doc.get_map(ROOT + kind.name)
        if base is None:
            base = kind.held(in_document(doc, kind.name), ids)
        local = now.records[kind.name] = kind.read(db, ids)
        for key, record in local.items():
            if base.get(key) != record:
                root.insert(key, _text(record))
                n += 1
        for key in base.keys() - local.keys():
            root.delete(key)
            n += 1
    if n:
        doc.commit()
    return n, now


def pull(db: Database, doc: loro.LoroDoc, stamp: str, papers: set[int],
         pushed: Known, changed: set[str] | None, moved: bool = True,
         noted: bool = True) -> tuple[set[int], set[str], Known | None]:
    """Make the library's records what ``doc`` says, kind by kind in the registry's
    order (a kind's records may name those of a kind before it); the papers touched,
    the change kinds written (the exchange's write says just those: a kind that
    names no papers, such as digests, makes it a change of any paper) and the records
    as both now hold them (None where the ids moved on the way).
    ``papers``: those the exchange wrote, whose counts of sightings are then made
    from the sightings again (another computer's counts came with its sightings).
    ``pushed``: the library's records at the push; a kind whose root the import did
    not change (``changed``, the roots it did; None: any) holds them still, where the
    papers' pull since (``apply``) left the ids as they were (``moved``: it added,
    removed or noted something, so they are read again) and, for a kind
    ``with_papers``, wrote no note (``noted``)."""
    touched: set[int] = set()
    kinds: set[str] = set()
    ids = Ids.of(db) if moved else pushed.ids
    still = not moved or ids == pushed.ids
    out: Known | None = Known(ids)
    for kind in KINDS:
        if (changed is not None and ROOT + kind.name not in changed and still
                and not (kind.with_papers and noted) and kind.name in pushed.records):
            if out is not None:
                out.records[kind.name] = pushed.records[kind.name]
            continue
        want = kind.held(in_document(doc, kind.name), ids)
        have = kind.read(db, ids)
        diff = Diff(
            added={k: v for k, v in want.items() if k not in have},
            changed={k: (have[k], v) for k, v in want.items() if k in have and have[k] != v},
            removed={k: v for k, v in have.items() if k not in want})
        if diff:
            touched |= kind.write(db, diff, ids, stamp)
            kinds.update(kind.changes)
            now = Ids.of(db)
            if now != ids:
                ids, out = now, None
        if out is not None:
            out.records[kind.name] = want
    kinds_digests.recount(db, touched | papers)
    return touched, kinds, out

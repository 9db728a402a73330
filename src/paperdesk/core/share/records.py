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
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import loro

from paperdesk.core.db import sync_changes
from paperdesk.core.db.database import Database
from paperdesk.core.share import fields, kinds_curation, kinds_digests, kinds_pdfs
from paperdesk.core.share.record_kind import Diff, Folded, Ids, Kind, Records

ROOT = "r:"
# In this order: a kind's records may name those of a kind before it.
KINDS: tuple[Kind, ...] = (*kinds_curation.KINDS, *kinds_digests.KINDS, *kinds_pdfs.KINDS)


def change_kinds() -> tuple[str, ...]:
    return tuple(sorted({c for k in KINDS for c in k.changes}))


def in_document(doc: loro.LoroDoc, name: str) -> Records:
    value = doc.get_map(ROOT + name).get_value()
    items = value.items() if isinstance(value, dict) else ()
    return {str(k): json.loads(v) for k, v in items if isinstance(v, str)}


def _marks(doc: loro.LoroDoc) -> dict[str, str]:
    value = doc.get_map(fields.MERGED).get_value()
    return fields.live_marks(value) if isinstance(value, dict) else {}


def _folded(doc: loro.LoroDoc, kind: Kind, marks: dict[str, str]) -> Folded:
    records = in_document(doc, kind.name)
    if kind.fold is None or not marks:
        return Folded(records)
    return kind.fold(records, marks)


def _held(doc: loro.LoroDoc, kind: Kind, ids: Ids, marks: dict[str, str]) -> Records:
    """The document's records of ``kind`` the library holds, those made for a paper
    merged away read as the kept paper's (``Kind.fold``)."""
    return kind.held(_folded(doc, kind, marks).records, ids)


def _raw(root: loro.LoroMap, key: str) -> dict[str, Any] | None:
    got = root.get(key)
    value = got.value if isinstance(got, loro.ValueOrContainer.Value) else None
    return json.loads(value) if isinstance(value, str) else None


def _push_folded(root: loro.LoroMap, kind: Kind, base: Records, local: Records,
                 origin: Callable[[], dict[str, list[str]]]) -> tuple[int, bool]:
    """``push`` of a kind the merge marks fold: a record goes to the key the document
    holds it under, with what it was made for (``Kind.unfold``); how many writes, and
    whether the library holds a row where the marks do not say (an unmerge here takes
    back only what its merge moved): the pull then reads the kind and moves it."""
    n, astray = 0, False
    for key, record in local.items():
        if base.get(key) == record:
            continue
        target = origin().get(key, [key])[0]
        raw = _raw(root, target)
        written = record if raw is None or kind.unfold is None else kind.unfold(record, raw)
        if written == raw:
            astray = True
            continue
        root.insert(target, _text(written))
        n += 1
    for key in base.keys() - local.keys():
        for target in origin().get(key, [key]):
            root.delete(target)
            n += 1
    return n, astray


def _once(doc: loro.LoroDoc, kind: Kind,
          marks: dict[str, str]) -> Callable[[], dict[str, list[str]]]:
    """The document's keys behind each folded key, read when first asked for."""
    got: list[dict[str, list[str]]] = []

    def origin() -> dict[str, list[str]]:
        if not got:
            got.append(_folded(doc, kind, marks).origin)
        return got[0]
    return origin


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
    # Kinds of which the library holds rows where the document's merge marks do not
    # say (an unmerge here takes back only what its merge moved): a pull moves them.
    astray: set[str] = field(default_factory=set)


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
    marks = _marks(doc)  # the papers' push wrote this exchange's merges first
    for kind in KINDS:
        base = known.records.get(kind.name) if same and known is not None else None
        if base is not None and quiet and _signalled(kind):
            now.records[kind.name] = base
            continue
        root = doc.get_map(ROOT + kind.name)
        if base is None:
            base = _held(doc, kind, ids, marks)
        local = now.records[kind.name] = kind.read(db, ids)
        if kind.fold is not None:
            wrote, astray = _push_folded(root, kind, base, local, _once(doc, kind, marks))
            n += wrote
            if astray:
                del now.records[kind.name]
                now.astray.add(kind.name)
            continue
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
    removed or noted something, so they are read again), for a kind
    ``with_papers``, wrote no note (``noted``) and, for a kind whose records the
    merge marks fold (``Kind.fold``), changed no mark."""
    touched: set[int] = set()
    kinds: set[str] = set()
    ids = Ids.of(db) if moved else pushed.ids
    still = not moved or ids == pushed.ids
    out: Known | None = Known(ids)
    marks = _marks(doc)
    for kind in KINDS:
        if (changed is not None and ROOT + kind.name not in changed and still
                and not (kind.with_papers and noted) and kind.name in pushed.records
                and not (kind.fold and fields.MERGED in changed)):
            if out is not None:
                out.records[kind.name] = pushed.records[kind.name]
            continue
        want = _held(doc, kind, ids, marks)
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

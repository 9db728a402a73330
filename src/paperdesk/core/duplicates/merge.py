"""Merging duplicate papers, taking merges apart, and remembering "not duplicates".

A merge keeps one paper: the others' sightings and notes move to it, it gets
the union of their tags, the highest rating, the furthest reading status, and
every field it lacked; ``choices`` picks, field by field, whose value wins
where both have one. The merged papers' rows are deleted (so their citation
keys and ids leave every list), and the row images of everything the merge
touched are kept in ``merges.undo``: an unmerge, even after a restart, puts
back the same ids, fields, tags, notes and sightings. Whatever changed since
the merge (a new sighting, a later rating) is kept, field by field.

Keys that left PaperDesk stay as they went out: a key kept from a paper whose key
was frozen stays frozen on the kept paper (a citation of it meant this work). An
unmerge (or an undo of the merge) leaves a key frozen on the kept paper since with
it, and a paper it brings back whose old key is taken that way comes back under a
fresh key (``Unmerged.rekeyed``; ``changes.restore``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from paperdesk.core.bibtex.citekey import key_maker
from paperdesk.core.db import (
    attachments_table,
    candidates_table,
    digests_table,
    images,
    merges_table,
    notes_table,
    papers_table,
    tags_table,
)
from paperdesk.core.db import changes as ch
from paperdesk.core.db.schema import STATUSES
from paperdesk.core.model.clock import now
from paperdesk.core.model.errors import DuplicateError as DuplicateError
from paperdesk.core.model.errors import NotFound
from paperdesk.core.model.jobs import CancelFlag, Progress, check_cancel, no_progress
from paperdesk.core.model.sources import TRACKED, of_paper
from paperdesk.core.model.text import plural, title_key

if TYPE_CHECKING:
    from paperdesk.core.duplicates.duplicates import Group
    from paperdesk.core.library import Library




@dataclass(frozen=True)
class Merged(ch.Result):
    merge_id: int
    kept_id: int
    merged_ids: list[int]


@dataclass(frozen=True)
class MergedAll(ch.Result):
    groups: int
    papers: int = 0
    merge_ids: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Unmerged(ch.Result):
    merge_id: int
    kept_id: int
    restored_ids: list[int]
    rekeyed: dict[int, str]


@dataclass(frozen=True)
class MarkedDifferent(ch.Result):
    pairs: int


# Fields the user may choose between, and the columns that travel with each.
CHOICES: dict[str, tuple[str, ...]] = {
    "title": ("title", "title_key"), "abstract": ("abstract",), "authors": ("authors",),
    "author_count": ("author_count",), "organization": ("organization", "organization_handle"),
    "published": ("published", "year", "year_inferred"), "arxiv_id": ("arxiv_id",),
    "doi": ("doi",), "url": ("url",), "citekey": ("citekey",), "rating": ("rating",),
    "status": ("status", "read_at"),
}
_FILL = ("title", "abstract", "authors", "author_count", "arxiv_id", "doi", "url")
# kept right by triggers; whether the key is frozen is ``frozen_keys``' (below)
_DERIVED = ("id", "upvotes", "seen_count", "citekey_frozen")
_KINDS = (ch.PAPERS, ch.PAPER_SET, ch.TAGS, ch.NOTES, ch.DUPLICATES, ch.CANDIDATES,
          ch.ATTACHMENTS)
_RANK = {s: n for n, s in enumerate(STATUSES)}


def _empty(value: Any) -> bool:
    return value is None or value == "" or value == "[]"


def merged_row(rows: dict[int, dict[str, Any]], keep: int, others: Sequence[int],
               choices: dict[str, int]) -> dict[str, Any]:
    """The kept paper's row after the merge."""
    group = [rows[keep], *(rows[o] for o in others)]
    new = dict(rows[keep])
    for name in _FILL:
        if _empty(new[name]):
            new[name] = next((r[name] for r in group if not _empty(r[name])), new[name])
    if _empty(new["organization"]):
        source = next((r for r in group if not _empty(r["organization"])), new)
        new["organization"], new["organization_handle"] = (source["organization"],
                                                           source["organization_handle"])
    dated = [r for r in group if r["published"]]
    best = next((r for r in dated if not r["year_inferred"]), dated[0] if dated else None)
    if best and (not new["published"] or (new["year_inferred"] and not best["year_inferred"])):
        for column in CHOICES["published"]:
            new[column] = best[column]
    new["rating"] = max(r["rating"] for r in group)
    furthest = max(group, key=lambda r: _RANK[r["status"]])
    new["status"], new["read_at"] = furthest["status"], furthest["read_at"] or new["read_at"]
    new["added"] = min(r["added"] for r in group)
    if any(r["deleted_at"] is None for r in group):
        new["deleted_at"] = None
    for name, pid in choices.items():
        for column in CHOICES[name]:
            new[column] = rows[pid][column]
    if "citekey" not in choices and not rows[keep].get("citekey_frozen"):
        # A key that left PaperDesk names this work in someone's document: it wins
        # over one that never left.
        new["citekey"] = next((r["citekey"] for r in group if r.get("citekey_frozen")),
                              new["citekey"])
    new["title_key"] = title_key(new["title"])
    listed = [r["list_position"] for r in group if r["list_position"] is not None]
    new["list_position"] = (new["list_position"] if new["list_position"] is not None else
                            (listed[0] if listed else None)) if new["status"] == "to-read" else None
    new["sources"] = _merged_sources(new, rows[keep], group)
    if "key_shared" in new:  # a key another paper keeps too (``core/share``) stays marked
        new["key_shared"] = int(any(r.get("key_shared") and r["citekey"] == new["citekey"]
                                    for r in group))
    new["modified"] = now()
    return new


def _merged_sources(new: dict[str, Any], kept: dict[str, Any],
                    group: list[dict[str, Any]]) -> str | None:
    """The kept paper's sources, with each field whose value came from another paper
    recorded as that paper had it (a .bib file's authors stay the .bib file's)."""
    mine = of_paper(kept)
    merged = dict(mine)
    for name in TRACKED:
        if name in _DERIVED or new.get(name) == kept.get(name):
            continue
        giver = next((r for r in group if r is not kept and r.get(name) == new.get(name)), None)
        if giver is not None and name in (theirs := of_paper(giver)):
            merged[name] = theirs[name]
    return kept.get("sources") if merged == mine else json.dumps(merged, sort_keys=True)


def _check_choices(choices: dict[str, int] | None, ids: Sequence[int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for name, pid in (choices or {}).items():
        if name not in CHOICES:
            raise DuplicateError(f"cannot choose {name!r}; choose among {', '.join(CHOICES)}")
        if int(pid) not in ids:
            raise DuplicateError(f"the {name} can only come from one of papers "
                                 f"{', '.join(map(str, ids))}, not {pid}")
        out[name] = int(pid)
    return out


def _check_key_choice(rows: dict[int, dict[str, Any]], chosen: int | None) -> None:
    """A key chosen for the merged paper that never left PaperDesk, while another of the
    papers' keys did: refused (that key names this work in someone's document)."""
    left = [r["citekey"] for r in rows.values() if r["citekey_frozen"] and r["citekey"]]
    if chosen is not None and left and not rows[chosen]["citekey_frozen"]:
        raise DuplicateError(f"the key {left[0]} has left PaperDesk (exported or copied) and "
                             "the merged paper keeps it: choose it, or choose no key")


def _merge_one(lib: Library, keep: int, others: list[int], choices: dict[str, int]) -> int:
    """Merge ``others`` into ``keep`` in an edit of its own, logged with its undo (which
    ``unmerge`` takes apart later); the merge's id."""
    db = lib.db
    ids = (keep, *others)
    label = f"Merge {plural(len(others), 'paper')} into paper {keep}"
    with lib.edit(label, _KINDS, ids) as e:
        rows = {r["id"]: r for r in images.stored(db, "papers", "id", ids)}
        _check_key_choice(rows, choices.get("citekey"))
        new = merged_row(rows, keep, others, choices)
        digests_table.move_sightings(db, keep, others)
        tags_table.copy_tags(db, keep, others)
        notes_table.move_notes(db, keep, others)
        attachments_table.move_attachments(db, keep, others)
        candidates_table.remove(db, ids)
        papers_table.delete(db, others)
        columns = [c for c in new if c not in _DERIVED]
        papers_table.set_columns(db, keep, {c: new[c] for c in columns})
        source = next((pid for pid, r in rows.items()
                       if r["citekey_frozen"] and r["citekey"] == new["citekey"]), None)
        if source is not None:
            # The kept key left PaperDesk as that paper's (every citation of it meant
            # this work): it stays frozen on the kept paper, whichever paper it came from;
            # carried from another, it goes back with it on an undo before it leaves again.
            papers_table.freeze_key(db, keep)
            if source != keep:
                papers_table.carry_key(db, keep, source)
    assert e.changes.undo is not None
    return merges_table.add(db, keep, others, now(), e.changes.undo.to_json())


def merge(lib: Library, keep: int, others: Sequence[int],
          choices: dict[str, int] | None = None) -> ch.Changes:
    """Merge ``others`` into ``keep``: one undoable edit, whose undo takes the merges row
    away with the rest."""
    keep = int(keep)
    others = list(dict.fromkeys(int(o) for o in others))
    if not others:
        raise DuplicateError("name at least one paper to merge into the kept one")
    if keep in others:
        raise DuplicateError(f"paper {keep} cannot be merged into itself")
    ids = lib.require([keep, *others])
    picked = _check_choices(choices, ids)
    label = f"Merge {plural(len(others), 'paper')} into paper {keep}"
    with lib.edit(label, _KINDS, ids) as e:
        merge_id = _merge_one(lib, keep, others, picked)
        e.result = Merged(merge_id, keep, others)
    return e.changes


def merge_groups(lib: Library, groups: Sequence[Group], progress: Progress = no_progress,
                 cancel: CancelFlag | None = None) -> ch.Changes:
    """Merge each group into its first paper, all in one transaction."""
    label = f"Merge {plural(len(groups), 'group')} of certain duplicates"
    if not groups:
        return ch.Changes(label, frozenset(), frozenset(), None, MergedAll(0))
    ids = {pid for group in groups for pid in group.ids}
    merge_ids: list[int] = []
    with lib.edit(label, _KINDS, ids) as e:
        for n, group in enumerate(groups):
            if n % 50 == 0:
                check_cancel(cancel)
                progress(n / len(groups), f"Merging group {n + 1} of {len(groups)}")
            merge_ids.append(_merge_one(lib, group.ids[0], list(group.ids[1:]), {}))
        e.result = MergedAll(len(groups), sum(len(g.ids) - 1 for g in groups), merge_ids)
    progress(1.0, f"Merged {plural(len(groups), 'group')}")
    return e.changes


# -- taking a merge apart -------------------------------------------------------

def three_way(image: ch.Image, current: list[dict[str, Any]],
              pks: list[str]) -> list[dict[str, Any]]:
    """The rows a scope should hold once its edit is undone, keeping later changes.

    Rows untouched since the edit go back to their "before" image; rows added
    since stay; rows removed since stay removed; a row changed since keeps the
    changed fields and gets back the rest.
    """
    key = lambda r: tuple(r[k] for k in pks)  # noqa: E731
    before = {key(r): r for r in image.before}
    after = {key(r): r for r in image.after}
    now_ = {key(r): r for r in current}
    target = []
    for k in [*before, *(k for k in now_ if k not in before)]:
        if k in now_:
            row = now_[k]
            if k not in after:
                target.append(row)
            elif row == after[k]:
                if k in before:
                    target.append(before[k])
            elif k in before:
                target.append({c: before[k].get(c, v) if v == after[k].get(c) else v
                               for c, v in row.items()})
            else:
                target.append(row)
        elif k in before and k not in after:
            target.append(before[k])
    return target


def _merge_row(lib: Library, merge_id: int) -> dict[str, Any]:
    row = next(iter(lib.db.query("SELECT * FROM merges WHERE id = ?", [merge_id])), None)
    if row is None:
        raise NotFound(f"no merge with id {merge_id}")
    if row["undone_at"]:
        raise DuplicateError(f"merge {merge_id} was already undone ({row['undone_at']})")
    return row


def _check_undoable(lib: Library, row: dict[str, Any]) -> list[int]:
    db, merge_id = lib.db, row["id"]
    merged = json.loads(row["merged_ids"])
    if not db.execute("SELECT 1 FROM papers WHERE id = ?", [row["kept_id"]]).fetchone():
        later = db.execute(
            "SELECT m.id, m.kept_id FROM merges m, json_each(m.merged_ids) j WHERE j.value = ? "
            "AND m.undone_at IS NULL AND m.id > ? ORDER BY m.id DESC LIMIT 1",
            [row["kept_id"], merge_id]).fetchone()
        if later:
            raise DuplicateError(f"paper {row['kept_id']} was merged into paper {later[1]} "
                                 f"afterwards; undo merge {later[0]} first")
        raise DuplicateError(f"paper {row['kept_id']} no longer exists; "
                             f"merge {merge_id} cannot be undone")
    for pid in merged:
        if db.execute("SELECT 1 FROM papers WHERE id = ?", [pid]).fetchone():
            raise DuplicateError(f"paper {pid} exists again; merge {merge_id} cannot be undone")
    return merged


def unmerge(lib: Library, merge_id: int) -> ch.Changes:
    """Take merge ``merge_id`` apart, keeping what changed since (``three_way``) and every
    key that left PaperDesk (see the module's description)."""
    db = lib.db
    row = _merge_row(lib, int(merge_id))
    merged = _check_undoable(lib, row)
    undo = ch.Undo.from_json(json.loads(row["undo"]))
    ids = [row["kept_id"], *merged]
    label = f"Undo merge {row['id']} (papers {', '.join(map(str, ids))})"
    with lib.edit(label, _KINDS, ids) as e:
        # A paper put back whose old key another keeps (the kept paper, whose key,
        # chosen from it, was exported after the merge) gets a fresh key.
        restored = ch.rewind(db, undo.images, three_way, new_key=key_maker(db))
        merges_table.mark_undone(db, row["id"], now())
        e.result = Unmerged(row["id"], row["kept_id"], merged, restored.rekeyed)
    return e.changes


def latest_merge_of(lib: Library, paper_id: int) -> int:
    """The newest merge (not undone) that kept or merged ``paper_id``."""
    found = lib.db.execute(
        "SELECT m.id FROM merges m WHERE m.undone_at IS NULL AND (m.kept_id = ? OR EXISTS "
        "(SELECT 1 FROM json_each(m.merged_ids) j WHERE j.value = ?)) ORDER BY m.id DESC "
        "LIMIT 1", [paper_id, paper_id]).fetchone()
    if not found:
        raise NotFound(f"no merge involving paper {paper_id} to undo")
    return found[0]


def history(lib: Library) -> list[dict[str, Any]]:
    """Every merge, newest first."""
    return [{"id": r["id"], "kept_id": r["kept_id"], "merged_ids": json.loads(r["merged_ids"]),
             "created": r["created"], "undone": r["undone_at"] is not None,
             "undone_at": r["undone_at"], "label": r["label"]}
            for r in lib.db.query(
                "SELECT id, kept_id, merged_ids, created, undone_at, "
                "json_extract(undo, '$.label') AS label FROM merges ORDER BY id DESC")]


def mark_different(lib: Library, ids: Sequence[int]) -> ch.Changes:
    """Remember that these papers are all different works; scans skip their pairs."""
    ids = lib.require(ids)
    if len(ids) < 2:
        raise DuplicateError("name at least two different papers")
    pairs = [(a, b) for a in ids for b in ids if a < b]
    label = f"Mark {plural(len(ids), 'paper')} as not duplicates"
    with lib.edit(label, [ch.DUPLICATES], ids) as e:
        e.result = MarkedDifferent(merges_table.mark_different(lib.db, pairs, now()))
        candidates_table.remove(lib.db, ids)
    return e.changes

"""Writing papers' rows back (an undo, a redo, an unmerge) without breaking a key that
left PaperDesk: a frozen key never changes nor comes to mean another paper.

``changes.restore`` calls these on the target rows of a ``papers`` image, before it
writes them:

- a key frozen since the edit stays as it went out, and frozen (``keep_frozen_key``,
  ``refreeze``); no undo thaws a key, and one that puts a paper back freezes its key
  again. A key a merge only carried onto the kept paper from the one merged away, not
  left as the kept paper's since (``carried_keys``), goes back with it;
- ``free_keys``: two papers never end up claiming one key, nor keys that differ only
  in case (BibTeX reads them as one; keys are ASCII, so ``lower`` folds them). A key
  that stays (a row keeping its key, above all a frozen one, such as the kept paper of
  a merge whose key was exported after it) or that a paper outside the undo holds, in
  any case, is not taken from them: a paper coming back whose old key is taken that
  way gets a fresh key (made by the caller's ``new_key``, the usual citation-key code),
  and one already there keeps the key it has. The restore reports them
  (``Restored.rekeyed``). A paper going away gives its key up first, so that the one
  taking it back never meets it;
- ``kept_in_trash``: an undo marked ``trash_frozen`` (an import's undo) never deletes
  a paper whose key has left PaperDesk since (it was exported after the images were
  taken): the paper goes to the trash with its key, as the import's undo itself does.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from collections.abc import Set as AbstractSet
from typing import Any, cast

from paperdesk.core.db import papers_table
from paperdesk.core.db.database import Database, select_in
from paperdesk.core.model import uids
from paperdesk.core.model.clock import now

Row = dict[str, Any]
# (a paper's row, keys it must not take, even in case) -> a fresh key for it. One
# ``free_keys`` passes one set, built once, adding each key made to it.
NewKey = Callable[[Row, set[str]], str]


def prepare(db: Database, rows: list[Row], present: dict[int, Row], *, adds_rows: bool,
            new_key: NewKey | None, trash_frozen: bool, left: list[Row]
            ) -> tuple[list[Row], list[int], dict[int, str]]:
    """The rows of a ``papers`` image to write back (copies: the image stays as it was),
    the papers there now (``present``, by id) that the rows lack but that stay, in the
    trash (with ``trash_frozen``: their key froze since ``left``, the image's other
    side, was taken), and {id: fresh key} of the papers given one. ``adds_rows``: the
    image holds whole rows (not a few columns), so papers it lacks go."""
    carried = papers_table.carried(db) & set(present)
    target = [dict(keep_frozen_key(with_bib_file(r), present.get(r["id"]), carried))
              for r in rows]
    # A key a merge carried onto a paper, not left as its own since, goes back with the
    # paper it came from: the one coming back is not frozen, as its image says.
    thawed = [r["id"] for r in target
              if r["id"] in carried and "citekey_frozen" in r and not r["citekey_frozen"]]
    if thawed:
        papers_table.thaw_carried(db, thawed)
    for pid in thawed:
        present[pid] = {**present[pid], "citekey_frozen": 0}
    wanted = {r["id"] for r in target}
    leaving = [p for p in present if p not in wanted] if adds_rows else []
    kept: list[int] = []
    if trash_frozen and leaving:
        was_frozen = {r["id"] for r in left if r.get("citekey_frozen")}
        kept = kept_in_trash(db, present, [p for p in leaving if p not in was_frozen])
        leaving = [p for p in leaving if p not in set(kept)]
    # A fresh key is none of the keys these papers had either (the kept paper's own).
    had = {r["citekey"] for r in rows if r.get("citekey")}
    free_uids(db, target, leaving)
    return target, kept, free_keys(db, target, present, leaving, new_key, had)


def free_uids(db: Database, target: list[Row], leaving: list[int]) -> None:
    """Two papers never share a stable id: a paper coming back whose id another paper
    took meanwhile (the same paper made again, an import after the trash was emptied)
    takes the next of its candidates (``core/model/uids.py``), as one coming back whose
    key was taken gets a fresh key; the paper already there keeps its id."""
    coming = [r for r in target if r.get("uid")]
    if not coming:
        return
    ours = {r["id"] for r in target} | set(leaving)
    holders = dict(select_in(db, "SELECT uid, id FROM papers WHERE uid IN ({marks})",
                             [r["uid"] for r in coming]))
    taken = set(holders)
    for row in coming:
        holder = holders.get(row["uid"])
        if holder is None or holder in ours:
            continue
        row["uid"] = next(
            c for c in uids.candidates(row.get("arxiv_id"), row.get("doi"), row.get("title_key"),
                                       row.get("citekey"))
            if c not in taken
            and db.execute("SELECT 1 FROM papers WHERE uid = ?", [c]).fetchone() is None)
        taken.add(row["uid"])


def keep_frozen_key(row: Row, current: Row | None,
                    carried: AbstractSet[int] = frozenset()) -> Row:
    """A key that has left PaperDesk since the edit stays as it went out (and frozen:
    ``refreeze``), shared with another paper if it is (``key_shared``); not one a merge
    only carried onto the paper (``carried``)."""
    if (current and current.get("citekey_frozen") and "citekey_frozen" in row
            and current["id"] not in carried):
        kept = {**row, "citekey": current["citekey"], "citekey_frozen": 1}
        if "key_shared" in row and "key_shared" in current:
            kept["key_shared"] = current["key_shared"]
        return kept
    return row


def refreeze(db: Database, target: list[Row]) -> None:
    """The papers of ``target`` whose image says their key is frozen get it frozen
    again (a paper put back by an unmerge): a frozen key is never thawed, by an undo
    either; nor is the key of one that left PaperDesk after the image was taken (its
    paper deleted or re-keyed since: ``retired_keys``)."""
    papers_table.freeze_listed(db, [r["id"] for r in target if r.get("citekey_frozen")])
    papers_table.refreeze_retired(db, [r["id"] for r in target])


def with_bib_file(row: Row) -> Row:
    """A paper's image taken before ``papers.bib_file`` existed (schema 0015; a merge's,
    kept in ``merges.undo``) gets it from its ``bib_source``, as the migration did."""
    if "bib_source" not in row or "bib_file" in row:
        return row
    source = row["bib_source"]
    return {**row, "bib_file": json.loads(source).get("file") if source else None}


def kept_in_trash(db: Database, present: dict[int, Row], leaving: list[int]) -> list[int]:
    """Of the papers ``leaving`` (there now, not in the rows written back, their keys not
    frozen when the images were taken), those whose key is frozen now: moved to the trash
    (if not there yet) instead of deleted; their ids."""
    kept = [pid for pid in leaving if present[pid].get("citekey_frozen")]
    untrashed = [pid for pid in kept if present[pid].get("deleted_at") is None]
    if untrashed:
        stamp = now()
        papers_table.mark_deleted(db, untrashed, stamp, stamp)
    return kept


def free_keys(db: Database, target: list[Row], present: dict[int, Row], leaving: list[int],
              new_key: NewKey | None, had: Iterable[str] = ()) -> dict[int, str]:
    """Make the keys of ``target`` (rows about to be written; changed in place) claim no
    key another paper keeps, even in another case; {paper id: fresh key} of the papers
    given one.

    ``present``: the scope's papers now, by id; ``leaving``: those of them about to be
    deleted (their keys are given up first); ``had``: keys a fresh one must not be
    either. A paper already there whose key would go back to one another keeps keeps
    the key it has; a paper coming back whose old key another keeps gets a fresh key,
    unless its old key was frozen and the other's is not: then the other yields (its
    key never left PaperDesk, and the frozen one meant the paper coming back)."""
    def changing(row: Row) -> bool:
        return bool(row.get("citekey")) and (
            row["id"] not in present or present[row["id"]].get("citekey") != row["citekey"])

    moving = [r for r in target if changing(r)]
    if not moving:
        return {}
    going, by_id = set(leaving), {r["id"]: r for r in target}
    # Keys as lower-cased (``.lower()``, SQL's ``lower``) from here on.
    wanted = sorted({r["citekey"].lower() for r in moving})
    holders = _holders(db, by_id, present, going, wanted,
                       [p for p, r in by_id.items() if r.get("citekey") and not changing(r)])
    given_up = {present[p]["citekey"].lower(): p for p in going if present[p].get("citekey")}
    rekeyed: dict[int, str] = {}
    avoid = {*holders, *given_up, *had, *wanted}  # once: many papers may need a fresh key

    def fresh(row: Row) -> str | None:
        if new_key is None:
            return None
        avoid.add(new := new_key(row, avoid))
        return new

    # Papers already there first: one whose new key is kept by another keeps its own.
    for row in sorted(moving, key=lambda r: r["id"] not in present):
        key, pid = row["citekey"], row["id"]
        holder, frozen = holders.get(key.lower(), (pid, False))
        if holder != pid:
            if pid in present:
                row["citekey"] = key = present[pid].get("citekey")
                row["citekey_frozen"] = present[pid].get("citekey_frozen", 0)
            elif row.get("citekey_frozen") and frozen and row.get("key_shared"):
                # A key that left for two papers on two computers, both keeping it
                # (``core/share``): this one comes back with it, the holder marked too.
                _mark_shared(db, holder, by_id)
            elif row.get("citekey_frozen") and not frozen and new_key:
                other = by_id.get(holder) or _paper(db, holder)
                rekeyed[holder] = new = cast(str, fresh(other))
                if holder in by_id:
                    by_id[holder]["citekey"] = new
                else:
                    papers_table.set_provisional_key(db, holder, new)
                holders[new.lower()] = (holder, False)
            elif (made := fresh(row)) is not None:
                row["citekey"], row["citekey_frozen"] = key, _ = made, 0
                rekeyed[pid] = made
            else:
                continue  # no way to make one: the write says what failed
        if key:
            holders[key.lower()] = (pid, bool(row.get("citekey_frozen")))
            if key.lower() in given_up:
                papers_table.clear_citekey(db, given_up.pop(key.lower()))
    return rekeyed


def _mark_shared(db: Database, holder: int, by_id: dict[int, Row]) -> None:
    if holder in by_id and "key_shared" in by_id[holder]:
        by_id[holder]["key_shared"] = 1  # written with its row
    else:
        papers_table.set_many(db, ["key_shared"], [(1, holder)])


def _holders(db: Database, by_id: dict[int, Row], present: dict[int, Row], going: set[int],
             wanted: list[str], keeping: list[int]) -> dict[str, tuple[int, bool]]:
    """key (lower-cased) -> (paper, frozen) of the papers that keep a key: those of
    ``keeping`` (written back with the key they have), those kept in the trash, and the
    papers outside the rows (``by_id``) holding one of the keys ``wanted`` (lower-cased),
    in any case."""
    holders = {by_id[p]["citekey"].lower(): (p, bool(present[p].get("citekey_frozen")))
               for p in keeping}
    holders.update((r["citekey"].lower(), (p, bool(r.get("citekey_frozen"))))
                   for p, r in present.items()
                   if p not in going and p not in by_id and r.get("citekey"))
    holders.update((key.lower(), (pid, bool(frozen))) for key, pid, frozen in select_in(
        db, "SELECT citekey, id, (id IN frozen_keys) FROM papers "
        "WHERE lower(citekey) IN ({marks})", wanted) if pid not in present and pid not in by_id)
    return holders


def _paper(db: Database, pid: int) -> Row:
    """What a key is made of, for a paper outside the rows written back."""
    cursor = db.execute("SELECT id, title, authors, organization, year FROM papers "
                        "WHERE id = ?", [pid])
    return dict(zip([d[0] for d in cursor.description], cursor.fetchone(), strict=True))

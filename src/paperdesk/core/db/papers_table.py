"""The one module that writes the ``papers`` table, and ``frozen_keys`` (which papers'
citation keys have left PaperDesk: a table of its own, so that freezing never rewrites
a paper's row).

Every INSERT, UPDATE and DELETE on ``papers`` outside the frozen migrations is a
function here, named for what it does; the features call them inside their own
write or edit (the transaction and ``Changes`` stay theirs). Each takes the ids it
writes and, inside an undoable edit, images the rows and columns it is about to write
(``images.cover``): the edit's undo is made of them. Each is set-based: over a
temporary id table it fills itself (``load_ids``), in chunks of ids (``execute_in``)
or with ``executemany``, so the same triggers fire the same number of times.
``tests/test_table_owners.py`` keeps the writes here, ``tests/test_undo_owners.py``
the images.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from paperdesk.core.db import attachments_table, ids
from paperdesk.core.db.database import Database, execute_in, load_ids, select_in
from paperdesk.core.db.images import cover, cover_added, recording
from paperdesk.core.model import uids

# What a paper's removal takes with it (ON DELETE CASCADE), imaged with it.
_CHILDREN = ("sightings", "paper_tags", "notes")


_KEY_COLUMNS = ("citekey", "citekey_frozen", "key_shared")


def _cover(db: Database, paper_ids: Iterable[int], columns: Sequence[str] = ()) -> None:
    """Image the papers' rows (only ``columns`` of them, when given) for the open edit.
    Whether a key is frozen goes with the key (``citekey_frozen``): an undo then never
    takes back a key that has left PaperDesk since (``paper_restore``)."""
    if recording(db) is None:  # outside an edit (an import's many small writes): nothing
        return
    if columns and {"citekey", "key_shared"} & set(columns):
        # A key, whether it is frozen and whether it is shared go in one image: each
        # row's are put back at once, the keys unique among unmarked papers throughout.
        columns = (*(c for c in columns if c not in _KEY_COLUMNS), *_KEY_COLUMNS)
    cover(db, "papers", "id", paper_ids, columns)

# -- new papers ----------------------------------------------------------------------
# Each insert gives its new papers their stable ids (``uid``, the last column): the
# same arXiv id, DOI or digest entry gives the same id on every computer.


def _with_uids(db: Database, rows: Sequence[Sequence[Any]], arxiv: int | None,
               doi: int | None, key: int, title_key: int = 3,
               after: dict[str, int] | None = None) -> list[tuple[Any, ...]]:
    """``rows`` each with its stable id appended: the first candidate no paper of the
    library (nor an earlier row) has taken. The indexes say where each row holds its
    arXiv id, DOI, citation key and title key.

    ``after``: basis -> the candidate to start from, kept by a caller that inserts in
    blocks (one import's chunks): every candidate before it is taken, by the library or
    an earlier block, so a title's fifteenth copy does not try the fourteen before it
    again. Filled in here; the ids are those a look from the first would choose."""
    after = {} if after is None else after
    bases = [uids.basis(row[arxiv] if arxiv is not None else None,
                        row[doi] if doi is not None else None, row[title_key], row[key])
             for row in rows]
    starts = [after.get(base, 1) if base is not None else 1 for base in bases]
    firsts = [uids.nth(base, n) if base is not None else next(uids.candidates_of(None))
              for base, n in zip(bases, starts, strict=True)]
    taken = {r[0] for r in select_in(db, "SELECT uid FROM papers WHERE uid IN ({marks})",
                                     firsts)}
    out = []
    for row, base, n, first in zip(rows, bases, starts, firsts, strict=True):
        uid = first
        if base is not None:
            if uid in taken or after.get(base, 1) != n:  # an earlier row of these took it
                n, uid = _free_uid(db, base, max(n, after.get(base, 1)), taken)
            after[base] = n + 1
        taken.add(uid)
        out.append((*row, uid))
    return out


_UID_BATCH = 32  # candidates looked up in the library at a time


def _free_uid(db: Database, base: str, start: int, taken: set[str]) -> tuple[int, str]:
    """The first candidate of ``base`` from the ``start``-th on neither in ``taken`` nor
    held by a paper of the library, and its place: the candidates a batch at a time, each
    batch looked up in one query."""
    while True:
        batch = [(n, c) for n in range(start, start + _UID_BATCH)
                 if (c := uids.nth(base, n)) not in taken]
        held = {r[0] for r in select_in(db, "SELECT uid FROM papers WHERE uid IN ({marks})",
                                        [c for _, c in batch])} if batch else set()
        for n, candidate in batch:
            if candidate not in held:
                return n, candidate
        start += _UID_BATCH


_INSERT_FROM_DIGEST = (
    "INSERT INTO papers (id, title, abstract, title_key, author_count, organization,"
    " organization_handle, published, year, year_inferred, citekey, added, modified,"
    " upvotes, seen_count, uid) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
_INSERT_FROM_BIB = (
    "INSERT INTO papers (id, title, abstract, title_key, authors, author_count, "
    "organization, published, year, arxiv_id, doi, url, citekey, citekey_frozen, bib_type, "
    "bib_fields, bib_source, bib_file, added, modified, uid) "
    "VALUES (?,?,CAST(? AS TEXT),?,?,?,?,?,?,?,?,?,?,?,?,?,CAST(? AS TEXT),?,?,?,?)")


def top_id(db: Database) -> int:
    """The highest id a paper has now (0 with none): the library's size, near enough,
    and the id above which a block's new papers come."""
    return db.execute("SELECT coalesce(max(id), 0) FROM papers").fetchone()[0]


def insert_from_digest(db: Database, rows: Iterable[Sequence[Any]]) -> None:
    """New papers of a digest: (id, title, abstract, title_key, author_count,
    organization, organization_handle, published, year, year_inferred, citekey,
    added, modified, upvotes, seen_count) each; their ids from ``ids.first_free``."""
    rows = _with_uids(db, list(rows), None, None, 10)
    if recording(db) is not None:
        cover_added(db, "papers", "id", [row[0] for row in rows])
    db.conn.executemany(_INSERT_FROM_DIGEST, rows)
    ids.mark_used(db, "papers")


def insert_from_bib(db: Database, rows: Sequence[Sequence[Any]],
                    uid_after: dict[str, int] | None = None) -> None:
    """New papers of a .bib file: (id, title, abstract, title_key, authors,
    author_count, organization, published, year, arxiv_id, doi, url, citekey,
    frozen, bib_type, bib_fields, bib_source, bib_file, added, modified) each (the
    abstract and bib_source as text, or in UTF-8: stored as text); a
    true ``frozen`` freezes the key (``frozen_keys``); their ids from ``ids.first_free``;
    ``uid_after``: ``_with_uids``'s, kept across one import's blocks."""
    if recording(db) is not None:
        cover_added(db, "papers", "id", [row[0] for row in rows])
    db.conn.executemany(_INSERT_FROM_BIB, _with_uids(db, rows, 9, 10, 12, after=uid_after))
    ids.mark_used(db, "papers")
    _freeze_new(db, [row[0] for row in rows if row[13]])


_INSERT_ADDED = (
    "INSERT INTO papers (id, title, abstract, title_key, authors, author_count, published,"
    " year, arxiv_id, doi, url, github, project_page, hub_upvotes, upvotes, citekey, sources,"
    " added, modified, uid) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")


def insert_added(db: Database, rows: Sequence[Sequence[Any]]) -> None:
    """Papers added by their identifier (``paperdesk add``): (id, title, abstract,
    title_key, authors, author_count, published, year, arxiv_id, doi, url, github,
    project_page, hub_upvotes, upvotes, citekey, sources, added, modified) each (the
    Hub's count is the paper's: no digest printed one yet); their ids from
    ``ids.first_free``."""
    if recording(db) is not None:
        cover_added(db, "papers", "id", [row[0] for row in rows])
    db.conn.executemany(_INSERT_ADDED, _with_uids(db, rows, 8, 9, 15))
    ids.mark_used(db, "papers")


def insert_shared(db: Database, names: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """Papers another computer made, arriving through a shared library: (id, value of
    each of ``names``...) each, ``uid`` among the names (the document's id, never one
    derived here); their ids from ``ids.first_free``."""
    if recording(db) is not None:
        cover_added(db, "papers", "id", [row[0] for row in rows])
    columns = ", ".join(f"[{n}]" for n in ("id", *names))
    db.conn.executemany(f"INSERT INTO papers ({columns}) VALUES "
                        f"({', '.join('?' * (len(names) + 1))})", rows)
    ids.mark_used(db, "papers")


def ensure_uids(db: Database, paper_ids: Sequence[int]) -> dict[int, str]:
    """The papers' stable ids, giving one to any paper that lacks it (a row written
    by another program straight into the file); by id."""
    rows = list(select_in(db, "SELECT id, uid, arxiv_id, doi, title_key, citekey FROM "
                              "papers WHERE id IN ({marks})", paper_ids))
    found = {pid: uid for pid, uid, *_ in rows if uid is not None}
    missing = [(pid, a, d, t, k) for pid, uid, a, d, t, k in rows if uid is None]
    if missing:
        _cover(db, [pid for pid, *_ in missing], ("uid",))
        given = _with_uids(db, [(a, d, t, k) for _, a, d, t, k in missing], 0, 1, 3, 2)
        new = {pid: row[4] for (pid, *_), row in zip(missing, given, strict=True)}
        db.conn.executemany("UPDATE papers SET uid = ? WHERE id = ?",
                            [(uid, pid) for pid, uid in new.items()])
        found |= new
    return found


# -- columns of one paper ------------------------------------------------------------

def set_columns(db: Database, pid: int, values: Mapping[str, Any]) -> None:
    """Set the named columns of one paper (names come from the code, never the user)."""
    _cover(db, [pid], tuple(values))
    db.execute(f"UPDATE papers SET {', '.join(f'[{n}] = ?' for n in values)} WHERE id = ?",
               [*values.values(), pid])


def set_many(db: Database, names: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """Set the same named columns of many papers in one ``executemany``: ``rows`` are
    (value of each of ``names``..., id) (names come from the code, never the user)."""
    if not rows:
        return
    _cover(db, [row[-1] for row in rows], tuple(names))
    db.conn.executemany(f"UPDATE papers SET {', '.join(f'[{n}] = ?' for n in names)} "
                        "WHERE id = ?", rows)


def key_shared(db: Database) -> set[int]:
    """The papers marked as holding a key another paper holds too (``key_shared``: a key
    that left PaperDesk for two papers on two computers, ``core/share``)."""
    return {r[0] for r in db.execute("SELECT id FROM papers WHERE key_shared = 1")}


def repeated_keys(db: Database, among: Sequence[int] | None) -> list[tuple[str, int]]:
    """The keys that more than one of the papers ``among`` (None: every paper out of the
    trash) hold, each with how many: only marked papers (``key_shared``) may."""
    rows = db.execute("SELECT id, citekey FROM papers WHERE key_shared = 1 AND "
                      "deleted_at IS NULL").fetchall()
    wanted = None if among is None else set(among)
    held: dict[str, list[str]] = {}
    for pid, key in rows:
        if key and (wanted is None or pid in wanted):
            held.setdefault(key.lower(), []).append(key)
    return sorted((keys[0], len(keys)) for keys in held.values() if len(keys) > 1)


def set_citekey(db: Database, pid: int, key: str, sources: str, stamp: str) -> None:
    """The user's key for one paper, with where it came from."""
    _cover(db, [pid], ("citekey", "sources", "modified"))
    db.execute("UPDATE papers SET citekey = ?, sources = ?, modified = ? WHERE id = ?",
               [key, sources, stamp, pid])


def clear_citekey(db: Database, pid: int) -> None:
    _cover(db, [pid], ("citekey",))
    db.execute("UPDATE papers SET citekey = NULL WHERE id = ?", [pid])


def set_provisional_key(db: Database, pid: int, key: str) -> None:
    _cover(db, [pid], ("citekey",))
    db.execute("UPDATE papers SET citekey = ? WHERE id = ?", [key, pid])


# -- frozen keys (a table of their own: freezing never rewrites a paper's row) ---------

def freeze_key(db: Database, pid: int) -> None:
    freeze_listed(db, [pid])


def set_year(db: Database, pid: int, year: int, published: str | None, sources: str,
             stamp: str) -> None:
    """A year the user gave (never inferred), with where it came from."""
    _cover(db, [pid], ("year", "published", "year_inferred", "sources",
                                      "modified"))
    db.execute("UPDATE papers SET year = ?, published = ?, year_inferred = 0, sources = ?, "
               "modified = ? WHERE id = ?", [year, published, sources, stamp, pid])


def touch(db: Database, pid: int, stamp: str) -> None:
    """Mark one paper modified (its notes changed)."""
    _cover(db, [pid], ("modified",))
    db.execute("UPDATE papers SET modified = ? WHERE id = ?", [stamp, pid])


def set_seen(db: Database, paper_ids: Sequence[int], stamp: str) -> int:
    """Set papers aside in triage (``seen_at``), those not set aside yet; how many."""
    _cover(db, paper_ids, ("seen_at",))
    return execute_in(db, "UPDATE papers SET seen_at = ? WHERE seen_at IS NULL "
                      "AND id IN ({marks})", paper_ids, stamp)


def set_list_position(db: Database, pid: int, position: float | None) -> None:
    _cover(db, [pid], ("list_position",))
    db.execute("UPDATE papers SET list_position = ? WHERE id = ?", [position, pid])


def set_list_positions(db: Database, places: Iterable[tuple[float, int]]) -> None:
    """(position, id) pairs, in one ``executemany``."""
    places = list(places)
    _cover(db, [pid for _, pid in places], ("list_position",))
    db.conn.executemany("UPDATE papers SET list_position = ? WHERE id = ?", places)


def set_bib_source_part(db: Database, pid: int, where: str, texts_json: str) -> None:
    """Set ``$.where`` of a kept entry's source to the JSON ``texts_json``."""
    _cover(db, [pid], ("bib_source",))
    db.execute(f"UPDATE papers SET bib_source = json_set(bib_source, '$.{where}', "
               "json(?)) WHERE id = ? AND bib_source IS NOT NULL", [texts_json, pid])


def fill_from_digest(db: Database, pid: int, f: Mapping[str, Any],
                     stamp: str) -> tuple[Any, Any] | None:
    """Fill what an existing paper lacked from a digest's entry (``f``: its
    author_count, organization, organization_handle, published, year and
    year_inferred); a printed year beats an inferred one. Its organization and year
    as they are now (None: no such paper)."""
    _cover(db, [pid], ("author_count", "organization", "organization_handle",
                                      "published", "year", "year_inferred", "modified"))
    return db.execute(
        """UPDATE papers SET
             author_count = coalesce(author_count, ?),
             organization = coalesce(organization, ?),
             organization_handle = coalesce(organization_handle, ?),
             published = CASE WHEN ? IS NOT NULL AND (published IS NULL OR
                           (year_inferred = 1 AND ? = 0)) THEN ? ELSE published END,
             year = CASE WHEN ? IS NOT NULL AND (published IS NULL OR
                           (year_inferred = 1 AND ? = 0)) THEN ? ELSE year END,
             year_inferred = CASE WHEN ? IS NOT NULL AND (published IS NULL OR
                           (year_inferred = 1 AND ? = 0)) THEN ? ELSE year_inferred END,
             modified = ?
           WHERE id = ? RETURNING organization, year""",
        [f["author_count"], f["organization"], f["organization_handle"],
         f["published"], f["year_inferred"], f["published"],
         f["published"], f["year_inferred"], f["year"],
         f["published"], f["year_inferred"], f["year_inferred"],
         stamp, pid]).fetchone()


def fill_from_bib(db: Database, pid: int, values: Sequence[Any]) -> None:
    """An existing paper completed from a .bib entry: ``values`` are its abstract,
    authors, organization, published, year, year_inferred, arxiv_id, doi, url,
    bib_type, bib_fields, bib_source, bib_file, citekey and modified."""
    _cover(db, [pid], ("abstract", "authors", "organization", "published",
                                      "year", "year_inferred", "arxiv_id", "doi", "url",
                                      "bib_type", "bib_fields", "bib_source", "bib_file",
                                      "citekey", "modified"))
    db.execute(
        "UPDATE papers SET abstract = ?, authors = ?, organization = ?, published = ?, "
        "year = ?, year_inferred = ?, arxiv_id = ?, doi = ?, url = ?, bib_type = ?, "
        "bib_fields = ?, bib_source = ?, bib_file = ?, citekey = ?, modified = ? WHERE id = ?",
        [*values, pid])


# -- many papers at once -------------------------------------------------------------

def freeze_listed(db: Database, ids: Sequence[int]) -> int:
    """Freeze the keys of those of ``ids`` that are papers, whatever the keys are (a .bib
    file's, or a frozen one an undo puts back); how many froze."""
    return _freeze(db, ids, "SELECT id FROM papers WHERE id IN {listed}")


def freeze_keys(db: Database, ids: Sequence[int]) -> int:
    """Freeze the provisional keys of ``ids``; how many froze."""
    return _freeze(db, ids, "SELECT id FROM papers WHERE id IN {listed} AND citekey IS NOT NULL")


def refreeze_retired(db: Database, ids: Sequence[int]) -> int:
    """Those of ``ids`` that hold the key they left PaperDesk under (``retired_keys``: a
    paper put back by an undo after it was deleted, merged away or re-keyed) have it
    frozen again; how many froze."""
    return _freeze(db, ids, "SELECT p.id FROM papers p JOIN retired_keys r "
                            "ON r.key = p.citekey AND r.paper_id = p.id WHERE p.id IN {listed}")


def freeze_as_written(db: Database, keys: Sequence[str]) -> int:
    """Freeze the keys an export wrote, on whichever paper holds each now: the file says
    what it says. A paper whose key another program changed since the export read it
    keeps its new key unfrozen (that one never left); how many froze."""
    return _freeze(db, keys, "SELECT id FROM papers WHERE citekey IN {listed}")


def _freeze_new(db: Database, ids: Sequence[int]) -> None:
    """Freeze the keys of papers just inserted (none of them has carried keys: ids are
    never used twice), a row per statement. One statement for them all would write
    under a statement journal, and its savepoint makes the search index write out the
    terms it holds in memory (``fts_hash``): a 100,000-entry import with abstracts
    spent 1.7 s in those writes and merges."""
    if not ids:
        return
    if recording(db) is not None:
        _cover(db, ids)
    db.conn.executemany("INSERT OR IGNORE INTO frozen_keys (paper_id) VALUES (?)",
                        [(pid,) for pid in ids])


def _freeze(db: Database, listed: Sequence[Any], select: str) -> int:
    """Freeze the papers ``select`` names, ``{listed}`` in it being ``listed`` (ids or
    keys), in one statement over a JSON list (100,000 inserts of their own took 0.3 s).
    Their keys left as theirs: a key a merge carried onto one of them is its own now."""
    if not listed:
        return 0
    select = select.format(listed="(SELECT value FROM json_each(?))")
    param = [json.dumps(list(listed))]
    if recording(db) is not None:  # a paper's image holds whether its key is frozen
        _cover(db, [r[0] for r in db.execute(select, param)])
    frozen = db.execute(f"INSERT OR IGNORE INTO frozen_keys (paper_id) {select}",
                        param).rowcount
    if db.execute("SELECT 1 FROM carried_keys LIMIT 1").fetchone():  # mostly none
        db.execute(f"DELETE FROM carried_keys WHERE paper_id IN ({select})", param)
    return frozen


def carry_key(db: Database, pid: int, source: int) -> None:
    """The frozen key of the paper ``pid`` came from ``source`` in a merge, and has not
    left PaperDesk as ``pid``'s (``carried_keys``, until a freeze of it ends this).
    Not imaged: an undo of the merge thaws it (``thaw_carried``)."""
    db.execute("INSERT OR REPLACE INTO carried_keys (paper_id, source) VALUES (?, ?)",
               [pid, source])


def carried(db: Database) -> set[int]:
    """The papers whose frozen key a merge carried onto them, not left as theirs since."""
    return {r[0] for r in db.execute("SELECT paper_id FROM carried_keys")}


def thaw_carried(db: Database, ids: Sequence[int]) -> None:
    """Those of ``ids`` whose frozen key is only a merge's carried one are not frozen any
    more (an undo of that merge: the key goes back to the paper it left as)."""
    listed = [json.dumps(list(ids))]
    db.execute("DELETE FROM frozen_keys WHERE paper_id IN (SELECT paper_id FROM "
               "carried_keys) AND paper_id IN (SELECT value FROM json_each(?))", listed)
    db.execute("DELETE FROM carried_keys WHERE paper_id IN (SELECT value FROM json_each(?))",
               listed)


def thaw(db: Database, ids: Sequence[int]) -> None:
    """The keys of ``ids`` are frozen no more: another computer's undo or unmerge took
    their freeze back (``core/share/apply``; the library follows the shared document)."""
    if not ids:
        return
    if recording(db) is not None:
        _cover(db, list(ids))
    listed = [json.dumps(list(ids))]
    db.execute("DELETE FROM frozen_keys WHERE paper_id IN (SELECT value FROM json_each(?))",
               listed)
    db.execute("DELETE FROM carried_keys WHERE paper_id IN (SELECT value FROM json_each(?))",
               listed)


def set_rating(db: Database, paper_ids: Sequence[int], rating: int, stamp: str) -> int:
    """Rate ``paper_ids``; how many changed (which: the edit's row changes). Not their ids
    from ``RETURNING``: that made rating 5,000 papers 16% slower."""
    _cover(db, paper_ids, ("rating", "modified"))
    table = load_ids(db, paper_ids)
    return db.execute(f"UPDATE papers SET rating = ?, modified = ? WHERE rating != ? "
                      f"AND id IN (SELECT id FROM {table})", [rating, stamp, rating]).rowcount


def set_status(db: Database, paper_ids: Sequence[int], status: str, stamp: str,
               last: float) -> int:
    """Give ``paper_ids`` ``status``: read stamps ``read_at``, to-read places them after
    ``last`` on the reading list in the order given; how many changed (as ``set_rating``)."""
    _cover(db, paper_ids, ("status", "modified", "read_at", "list_position"))
    table = load_ids(db, paper_ids)
    return db.execute(
        f"""UPDATE papers SET status = :status, modified = :stamp,
              read_at = CASE WHEN :status = 'read' THEN :stamp END,
              list_position = CASE WHEN :status = 'to-read' THEN :last + c.n END
            FROM (SELECT i.id, row_number() OVER (ORDER BY i.ord) AS n
                  FROM {table} i JOIN papers q ON q.id = i.id
                  WHERE q.status != :status) AS c
            WHERE papers.id = c.id""",
        {"status": status, "stamp": stamp, "last": last}).rowcount


def mark_deleted(db: Database, paper_ids: Sequence[int], value: str | None,
                 stamp: str) -> None:
    """Put ``paper_ids`` in the trash (``value``: when) or take them out (None)."""
    _cover(db, paper_ids, ("deleted_at", "modified"))
    execute_in(db, "UPDATE papers SET deleted_at = ?, modified = ? "
                   "WHERE id IN ({marks})", paper_ids, value, stamp)


def trash(db: Database, paper_ids: Sequence[int], stamp: str) -> None:
    """Put those of ``paper_ids`` not in the trash yet into it."""
    _cover(db, paper_ids, ("deleted_at", "modified"))
    table = load_ids(db, paper_ids)
    db.execute(f"UPDATE papers SET deleted_at = ?, modified = ? WHERE deleted_at IS NULL "
               f"AND id IN (SELECT id FROM {table})", [stamp, stamp])


def delete(db: Database, paper_ids: Sequence[int]) -> int:
    """Delete ``paper_ids`` for good (their sightings, tags, notes and attachments, with
    the attachments' highlights, go with them, and are imaged with them); how many went."""
    _cover(db, paper_ids)
    for child in _CHILDREN:
        cover(db, child, "paper_id", paper_ids)
    attachments_table.cover_papers(db, paper_ids)
    table = load_ids(db, paper_ids)
    return db.execute(f"DELETE FROM papers WHERE id IN (SELECT id FROM {table})").rowcount


def recount_sightings(db: Database, first_sighting: int) -> None:
    """``upvotes`` and ``seen_count`` of the papers seen from sighting ``first_sighting``
    on, after a load with the triggers off; a row already right is not rewritten."""
    if recording(db) is not None:
        _cover(db, [r[0] for r in db.execute(
            "SELECT DISTINCT paper_id FROM sightings WHERE id > ?", [first_sighting])],
              ("upvotes", "seen_count"))
    # upvotes: the larger of the digests' count and the Hub's (migration 0024)
    db.execute("""UPDATE papers SET upvotes = s.up, seen_count = s.seen
        FROM (SELECT s.paper_id, nullif(max(coalesce(max(s.upvotes), -1),
                                            coalesce(p.hub_upvotes, -1)), -1) AS up,
                     count(DISTINCT s.digest_id) AS seen
              FROM sightings s JOIN papers p ON p.id = s.paper_id
              WHERE s.paper_id IN (SELECT paper_id FROM sightings WHERE id > ?)
              GROUP BY s.paper_id) AS s
        WHERE papers.id = s.paper_id
          AND (papers.upvotes IS NOT s.up OR papers.seen_count IS NOT s.seen)""",
               [first_sighting])


def recount_seen(db: Database, paper_ids: Sequence[int]) -> None:
    """``upvotes`` and ``seen_count`` of those of ``paper_ids`` seen in a digest, from
    their sightings, as the sightings' triggers make them: after an exchange wrote
    another computer's counts over them; a row already right is not rewritten."""
    table = load_ids(db, paper_ids)
    stale = [r[0] for r in db.execute(f"""SELECT p.id FROM papers p JOIN
        (SELECT s.paper_id, max(s.upvotes) AS up, count(DISTINCT s.digest_id) AS seen
         FROM sightings s WHERE s.paper_id IN (SELECT id FROM {table}) GROUP BY s.paper_id)
        AS s ON s.paper_id = p.id
        WHERE p.upvotes IS NOT nullif(max(coalesce(s.up, -1), coalesce(p.hub_upvotes, -1)), -1)
           OR p.seen_count IS NOT s.seen""")]
    if not stale:
        return
    _cover(db, stale, ("upvotes", "seen_count"))
    table = load_ids(db, stale)
    db.execute(f"""UPDATE papers SET upvotes = s.up, seen_count = s.seen
        FROM (SELECT s.paper_id, nullif(max(coalesce(max(s.upvotes), -1),
                                            coalesce(p.hub_upvotes, -1)), -1) AS up,
                     count(DISTINCT s.digest_id) AS seen
              FROM sightings s JOIN papers p ON p.id = s.paper_id
              WHERE s.paper_id IN (SELECT id FROM {table})
              GROUP BY s.paper_id) AS s
        WHERE papers.id = s.paper_id""")

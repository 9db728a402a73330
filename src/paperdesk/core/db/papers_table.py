"""The one module that writes the ``papers`` table, and ``frozen_keys`` (which papers'
citation keys have left PaperDesk: a table of its own, so that freezing never rewrites
a paper's row).

Every INSERT, UPDATE and DELETE on ``papers`` outside the frozen migrations is a
function here, named for what it does; the features call them inside their own
write or edit (the transaction, undo images and ``Changes`` stay theirs). Each is
the statement its caller ran before, set-based where it was: over the temporary
id table (``idlists.load_ids``), in chunks of ids (``execute_in``) or with
``executemany``, so the same triggers fire the same number of times.
``tests/test_table_owners.py`` keeps the writes here.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from paperdesk.core.db import ids
from paperdesk.core.db.database import execute_in

# -- new papers ----------------------------------------------------------------------

_INSERT_FROM_DIGEST = (
    "INSERT INTO papers (id, title, abstract, title_key, author_count, organization,"
    " organization_handle, published, year, year_inferred, citekey, added, modified,"
    " upvotes, seen_count) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
_INSERT_FROM_BIB = (
    "INSERT INTO papers (id, title, abstract, title_key, authors, author_count, "
    "organization, published, year, arxiv_id, doi, url, citekey, citekey_frozen, bib_type, "
    "bib_fields, bib_source, bib_file, added, modified) "
    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")


def insert_from_digest(db: Any, rows: Iterable[Sequence[Any]]) -> None:
    """New papers of a digest: (id, title, abstract, title_key, author_count,
    organization, organization_handle, published, year, year_inferred, citekey,
    added, modified, upvotes, seen_count) each; their ids from ``ids.first_free``."""
    db.conn.executemany(_INSERT_FROM_DIGEST, rows)
    ids.mark_used(db, "papers")


def insert_from_bib(db: Any, rows: Sequence[Sequence[Any]]) -> None:
    """New papers of a .bib file: (id, title, abstract, title_key, authors,
    author_count, organization, published, year, arxiv_id, doi, url, citekey,
    frozen, bib_type, bib_fields, bib_source, bib_file, added, modified) each; a
    true ``frozen`` freezes the key (``frozen_keys``); their ids from ``ids.first_free``."""
    db.conn.executemany(_INSERT_FROM_BIB, rows)
    ids.mark_used(db, "papers")
    freeze_listed(db, [row[0] for row in rows if row[13]])


_INSERT_ADDED = (
    "INSERT INTO papers (id, title, abstract, title_key, authors, author_count, published,"
    " year, arxiv_id, doi, url, github, project_page, hub_upvotes, upvotes, citekey, sources,"
    " added, modified) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")


def insert_added(db: Any, rows: Sequence[Sequence[Any]]) -> None:
    """Papers added by their identifier (``paperdesk add``): (id, title, abstract,
    title_key, authors, author_count, published, year, arxiv_id, doi, url, github,
    project_page, hub_upvotes, upvotes, citekey, sources, added, modified) each (the
    Hub's count is the paper's: no digest printed one yet); their ids from
    ``ids.first_free``."""
    db.conn.executemany(_INSERT_ADDED, rows)
    ids.mark_used(db, "papers")


# -- columns of one paper ------------------------------------------------------------

def set_columns(db: Any, pid: int, values: Mapping[str, Any]) -> None:
    """Set the named columns of one paper (names come from the code, never the user)."""
    db.execute(f"UPDATE papers SET {', '.join(f'[{n}] = ?' for n in values)} WHERE id = ?",
               [*values.values(), pid])


def set_citekey(db: Any, pid: int, key: str, sources: str, stamp: str) -> None:
    """The user's key for one paper, with where it came from."""
    db.execute("UPDATE papers SET citekey = ?, sources = ?, modified = ? WHERE id = ?",
               [key, sources, stamp, pid])


def clear_citekey(db: Any, pid: int) -> None:
    db.execute("UPDATE papers SET citekey = NULL WHERE id = ?", [pid])


def set_provisional_key(db: Any, pid: int, key: str) -> None:
    db.execute("UPDATE papers SET citekey = ? WHERE id = ?", [key, pid])


# -- frozen keys (a table of their own: freezing never rewrites a paper's row) ---------

def freeze_key(db: Any, pid: int) -> None:
    freeze_listed(db, [pid])


def set_year(db: Any, pid: int, year: int, published: str | None, sources: str,
             stamp: str) -> None:
    """A year the user gave (never inferred), with where it came from."""
    db.execute("UPDATE papers SET year = ?, published = ?, year_inferred = 0, sources = ?, "
               "modified = ? WHERE id = ?", [year, published, sources, stamp, pid])


def touch(db: Any, pid: int, stamp: str) -> None:
    """Mark one paper modified (its notes changed)."""
    db.execute("UPDATE papers SET modified = ? WHERE id = ?", [stamp, pid])


def set_seen(db: Any, ids: Sequence[int], stamp: str) -> int:
    """Set papers aside in triage (``seen_at``), those not set aside yet; how many."""
    return execute_in(db, "UPDATE papers SET seen_at = ? WHERE seen_at IS NULL "
                      "AND id IN ({marks})", ids, stamp)


def set_list_position(db: Any, pid: int, position: float | None) -> None:
    db.execute("UPDATE papers SET list_position = ? WHERE id = ?", [position, pid])


def set_list_positions(db: Any, places: Iterable[tuple[float, int]]) -> None:
    """(position, id) pairs, in one ``executemany``."""
    db.conn.executemany("UPDATE papers SET list_position = ? WHERE id = ?", places)


def set_bib_source_part(db: Any, pid: int, where: str, texts_json: str) -> None:
    """Set ``$.where`` of a kept entry's source to the JSON ``texts_json``."""
    db.execute(f"UPDATE papers SET bib_source = json_set(bib_source, '$.{where}', "
               "json(?)) WHERE id = ? AND bib_source IS NOT NULL", [texts_json, pid])


def fill_from_digest(db: Any, pid: int, f: Mapping[str, Any],
                     stamp: str) -> tuple[Any, Any] | None:
    """Fill what an existing paper lacked from a digest's entry (``f``: its
    author_count, organization, organization_handle, published, year and
    year_inferred); a printed year beats an inferred one. Its organization and year
    as they are now (None: no such paper)."""
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


def fill_from_bib(db: Any, pid: int, values: Sequence[Any]) -> None:
    """An existing paper completed from a .bib entry: ``values`` are its abstract,
    authors, organization, published, year, year_inferred, arxiv_id, doi, url,
    bib_type, bib_fields, bib_source, bib_file, citekey and modified."""
    db.execute(
        "UPDATE papers SET abstract = ?, authors = ?, organization = ?, published = ?, "
        "year = ?, year_inferred = ?, arxiv_id = ?, doi = ?, url = ?, bib_type = ?, "
        "bib_fields = ?, bib_source = ?, bib_file = ?, citekey = ?, modified = ? WHERE id = ?",
        [*values, pid])


# -- many papers at once -------------------------------------------------------------

def freeze_listed(db: Any, ids: Sequence[int]) -> int:
    """Freeze the keys of those of ``ids`` that are papers, whatever the keys are (a .bib
    file's, or a frozen one an undo puts back); how many froze."""
    return _freeze(db, ids, "SELECT id FROM papers WHERE id IN {listed}")


def freeze_keys(db: Any, ids: Sequence[int]) -> int:
    """Freeze the provisional keys of ``ids``; how many froze."""
    return _freeze(db, ids, "SELECT id FROM papers WHERE id IN {listed} AND citekey IS NOT NULL")


def refreeze_retired(db: Any, ids: Sequence[int]) -> int:
    """Those of ``ids`` that hold the key they left PaperDesk under (``retired_keys``: a
    paper put back by an undo after it was deleted, merged away or re-keyed) have it
    frozen again; how many froze."""
    return _freeze(db, ids, "SELECT p.id FROM papers p JOIN retired_keys r "
                            "ON r.key = p.citekey AND r.paper_id = p.id WHERE p.id IN {listed}")


def freeze_as_written(db: Any, keys: Sequence[str]) -> int:
    """Freeze the keys an export wrote, on whichever paper holds each now: the file says
    what it says. A paper whose key another program changed since the export read it
    keeps its new key unfrozen (that one never left); how many froze."""
    return _freeze(db, keys, "SELECT id FROM papers WHERE citekey IN {listed}")


def _freeze(db: Any, listed: Sequence[Any], select: str) -> int:
    """Freeze the papers ``select`` names, ``{listed}`` in it being ``listed`` (ids or
    keys), in one statement over a JSON list (100,000 inserts of their own took 0.3 s).
    Their keys left as theirs: a key a merge carried onto one of them is its own now."""
    if not listed:
        return 0
    select = select.format(listed="(SELECT value FROM json_each(?))")
    param = [json.dumps(list(listed))]
    frozen = db.execute(f"INSERT OR IGNORE INTO frozen_keys (paper_id) {select}",
                        param).rowcount
    if db.execute("SELECT 1 FROM carried_keys LIMIT 1").fetchone():  # mostly none
        db.execute(f"DELETE FROM carried_keys WHERE paper_id IN ({select})", param)
    return frozen


def carry_key(db: Any, pid: int, source: int) -> None:
    """The frozen key of the paper ``pid`` came from ``source`` in a merge, and has not
    left PaperDesk as ``pid``'s (``carried_keys``, until a freeze of it ends this)."""
    db.execute("INSERT OR REPLACE INTO carried_keys (paper_id, source) VALUES (?, ?)",
               [pid, source])


def carried(db: Any) -> set[int]:
    """The papers whose frozen key a merge carried onto them, not left as theirs since."""
    return {r[0] for r in db.execute("SELECT paper_id FROM carried_keys")}


def thaw_carried(db: Any, ids: Sequence[int]) -> None:
    """Those of ``ids`` whose frozen key is only a merge's carried one are not frozen any
    more (an undo of that merge: the key goes back to the paper it left as)."""
    listed = [json.dumps(list(ids))]
    db.execute("DELETE FROM frozen_keys WHERE paper_id IN (SELECT paper_id FROM "
               "carried_keys) AND paper_id IN (SELECT value FROM json_each(?))", listed)
    db.execute("DELETE FROM carried_keys WHERE paper_id IN (SELECT value FROM json_each(?))",
               listed)


def set_rating(db: Any, rating: int, stamp: str) -> int:
    """Rate the papers of ``temp.ids``; how many changed."""
    return db.execute("UPDATE papers SET rating = ?, modified = ? WHERE rating != ? "
                      "AND id IN (SELECT id FROM temp.ids)", [rating, stamp, rating]).rowcount


def set_status(db: Any, status: str, stamp: str, last: float) -> int:
    """Give the papers of ``temp.ids`` ``status``: read stamps ``read_at``, to-read
    places them after ``last`` on the reading list in the table's order; how many changed."""
    return db.execute(
        """UPDATE papers SET status = :status, modified = :stamp,
             read_at = CASE WHEN :status = 'read' THEN :stamp END,
             list_position = CASE WHEN :status = 'to-read' THEN :last + c.n END
           FROM (SELECT i.id, row_number() OVER (ORDER BY i.ord) AS n
                 FROM temp.ids i JOIN papers q ON q.id = i.id
                 WHERE q.status != :status) AS c
           WHERE papers.id = c.id""",
        {"status": status, "stamp": stamp, "last": last}).rowcount


def mark_deleted(db: Any, ids: Sequence[int], value: str | None, stamp: str) -> None:
    """Put ``ids`` in the trash (``value``: when) or take them out (None)."""
    execute_in(db, "UPDATE papers SET deleted_at = ?, modified = ? "
                   "WHERE id IN ({marks})", ids, value, stamp)


def trash_listed(db: Any, stamp: str) -> None:
    """Put the papers of ``temp.ids`` not in the trash yet into it."""
    db.execute("UPDATE papers SET deleted_at = ?, modified = ? WHERE deleted_at IS NULL "
               "AND id IN (SELECT id FROM temp.ids)", [stamp, stamp])


def delete(db: Any, ids: Sequence[int]) -> int:
    """Delete ``ids`` for good (their sightings, tags and notes go with them)."""
    return execute_in(db, "DELETE FROM papers WHERE id IN ({marks})", ids)


def delete_listed(db: Any) -> None:
    """Delete the papers of ``temp.ids`` for good."""
    db.execute("DELETE FROM papers WHERE id IN (SELECT id FROM temp.ids)")


def recount_sightings(db: Any, first_sighting: int) -> None:
    """``upvotes`` and ``seen_count`` of the papers seen from sighting ``first_sighting``
    on, after a load with the triggers off; a row already right is not rewritten."""
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

"""What the kept-in-sync files have yet to catch up with, kept in the library itself.

Every write whose change a synced file may show adds a row to ``sync_changes`` in its
own transaction (``record``, called by ``Library.write`` just before the commit): its
``generation`` (rising by one a change) and the papers it changed (NULL: any paper may
have). A sync records the generation its file was written at (``syncs.generation``),
so that

- a sync whose generation is below the library's is pending, whatever happened to the
  program that made the change (killed, stopped, its write refused): the next program
  to open the library writes it, and ``sync list`` says so meanwhile;
- the writer that reuses entries byte for byte makes again those of every paper changed
  since its file was written (``changed_since``), by any program, seen or not.

Rows no sync needs any more go (``prune``); only the library's newest one stays, which
holds its generation. A library with no sync records nothing, unless it is shared: an
exchange reads again only the papers changed since the last one (``changed_since``
from the generation it recorded; notes count there too), and reads every paper when
the rows it needs were pruned.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable

from paperdesk.core.db import changes as ch
from paperdesk.core.db.database import Database

# Kinds whose change can change a synced file's bytes or what goes in it.
CONTENT = frozenset({ch.PAPERS, ch.PAPER_SET, ch.TAGS, ch.DIGESTS, ch.DUPLICATES})
# What a shared library's exchange reads again of the papers changed since the last
# one (``core/share/partial.py``): their fields, tags, notes and frozen keys.
SHARED_CONTENT = CONTENT | {ch.NOTES, ch.SYNCS}
# A change of these kinds alone that names no paper changed none (a sync's own state).
QUIET = frozenset({ch.SYNCS})
# Kinds whose changes name every paper they touch, so the other entries can be reused.
PRECISE = frozenset({ch.PAPERS, ch.PAPER_SET, ch.TAGS, ch.NOTES, ch.CANDIDATES, ch.SYNCS})
# A change of more papers than this is recorded as one of any paper (a large import).
MOST_IDS = 100_000
# Rows kept for a sync that stopped long ago (a conflict nobody resolved); one further
# behind makes every entry again when it is written.
MOST_ROWS = 10_000
# Changes recorded between two prunes by the record itself (the writes of files prune too).
PRUNE_EVERY = 1000


def touched(parts: Iterable[ch.Changes],
            content: frozenset[str] = CONTENT) -> tuple[bool, set[int] | None]:
    """(whether the changes concern synced files, the papers they changed: None for any)."""
    concern, ids = False, set()  # type: tuple[bool, set[int] | None]
    for changes in parts:
        kinds = changes.kinds
        if ch.SEARCHES in kinds:  # what a saved search's file holds: no entry itself
            concern = True
        if not kinds & content or (kinds & content <= QUIET and not changes.paper_ids):
            continue
        concern = True
        if ids is not None and kinds <= PRECISE and changes.paper_ids:
            ids |= changes.paper_ids
        else:
            ids = None
    return concern, ids


def written(db: Database, write: ch.Write, queued: list[ch.Changes] | None, before: int) -> None:
    """Called by ``Library.write`` inside its transaction, just before the commit: what
    an outer write (``queued``: the changes of the writes nested in it; None for a nested
    write, recorded by its outer one) made, if it changed rows since the connection's
    ``total_changes`` was ``before``, is recorded for the synced files to catch up with,
    whatever happens to the program after the commit."""
    if queued is not None and db.conn.total_changes != before:
        record(db, made(write, queued))


def made(write: ch.Write, queued: Iterable[ch.Changes]) -> list[ch.Changes]:
    """Inside an outer ``Library.write`` about to commit: the changes it made, as its
    listeners will hear them (the nested writes' ``queued``, its own, or, unsaid, every
    kind)."""
    parts = list(queued)
    if write.made is not None:  # the block said its changes itself
        parts.append(write.made)
    elif write.kinds or write.paper_ids:
        parts.append(ch.Changes(write.label, frozenset(write.kinds), frozenset(write.paper_ids)))
    elif not parts:
        parts.append(ch.Changes(write.label, ch.ALL_KINDS))
    return parts


def record(db: Database, parts: Iterable[ch.Changes]) -> None:
    """Inside the write that made ``parts``: the syncs have them to catch up with."""
    # What concerns no shared library concerns no sync either (CONTENT is the smaller):
    # most writes of a sync's own state end here, asking the library nothing.
    concern, ids = touched(parts, SHARED_CONTENT)
    if not concern:
        return
    if db.execute("SELECT 1 FROM share_doc LIMIT 1").fetchone() is None:  # not shared
        concern, ids = touched(parts, CONTENT)
        if not concern or not db.execute("SELECT 1 FROM syncs LIMIT 1").fetchone():
            return
    blob = None if ids is None else blob_of(ids)
    added = db.execute("INSERT INTO sync_changes (paper_ids) VALUES (?)", [blob]).lastrowid
    if added and added % PRUNE_EVERY == 0:  # (a sync stopped for good writes no more)
        prune(db)


def generation(db: Database) -> int:
    """The library's generation: how many changes the synced files have had to follow."""
    return db.execute("SELECT coalesce(max(generation), 0) FROM sync_changes").fetchone()[0]


def changed_since(db: Database, since: int | None, upto: int) -> set[int] | None:
    """The papers changed after generation ``since`` up to ``upto``; None when any may
    have (a change of any paper, ``since`` unknown, or rows pruned since)."""
    if since is None:
        return None
    if since >= upto:
        return set()
    first = db.execute("SELECT min(generation) FROM sync_changes").fetchone()[0]
    if first is None or first > since + 1:
        return None
    ids: set[int] = set()
    for (blob,) in db.execute("SELECT paper_ids FROM sync_changes WHERE generation > ? AND "
                              "generation <= ?", [since, upto]):
        if blob is None:
            return None
        part = array("q")
        part.frombytes(blob)
        ids.update(part)
    return ids


def prune(db: Database) -> None:
    """Inside a write: the rows every sync has caught up with go (and those beyond
    ``MOST_ROWS``), but the newest, which holds the library's generation."""
    db.execute(
        "DELETE FROM sync_changes WHERE generation < (SELECT max(generation) FROM sync_changes)"
        " AND (generation <= (SELECT coalesce(min(generation), 0) FROM syncs "
        "WHERE generation IS NOT NULL) OR generation <= (SELECT max(generation) FROM "
        "sync_changes) - ?)", [MOST_ROWS])


def blob_of(ids: set[int]) -> bytes | None:
    """The ``paper_ids`` a change of ``ids`` is recorded with."""
    return None if len(ids) > MOST_IDS else array("q", sorted(ids)).tobytes()


def row(db: Database, generation: int) -> tuple[bool, bytes | None]:
    """(whether the row of ``generation`` is there, its ``paper_ids``)."""
    got = db.execute("SELECT paper_ids FROM sync_changes WHERE generation = ?",
                     [generation]).fetchone()
    return (False, None) if got is None else (True, None if got[0] is None else bytes(got[0]))

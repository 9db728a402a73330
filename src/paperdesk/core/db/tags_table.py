"""The one module that writes the ``tags`` table and ``paper_tags``, which papers
carry which tag (``tests/test_table_owners.py`` keeps the writes here).

The annotation index follows through triggers, or through ``annotations.in_bulk``
around the set-based statements when many papers are tagged at once. Inside an
undoable edit each function first images the rows it writes (``images.cover``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from paperdesk.core.db import ids
from paperdesk.core.db.database import Database, load_ids
from paperdesk.core.db.images import cover, recording


def add_tags(db: Database, names: Iterable[tuple[str, str]]) -> None:
    """(name, name_key) pairs; a key that exists keeps its spelling. A new tag's id is
    one no tag ever had (``ids``: an undo of a deleted tag puts it back under its own)."""
    names = list(names)
    cover(db, "tags", "name_key", [key for _, key in names])
    first = ids.first_free(db, "tags")
    db.conn.executemany("INSERT OR IGNORE INTO tags (id, name, name_key) VALUES (?, ?, ?)",
                        ((first + n, *pair) for n, pair in enumerate(names)))
    ids.mark_used(db, "tags")


def rename(db: Database, tag_id: int, name: str, key: str) -> None:
    cover(db, "tags", "id", [tag_id])
    db.execute("UPDATE tags SET name = ?, name_key = ? WHERE id = ?", [name, key, tag_id])


def delete_tag(db: Database, tag_id: int) -> None:
    """A tag and every paper's mark of it."""
    cover(db, "tags", "id", [tag_id])
    cover(db, "paper_tags", "tag_id", [tag_id])
    db.execute("DELETE FROM paper_tags WHERE tag_id = ?", [tag_id])
    db.execute("DELETE FROM tags WHERE id = ?", [tag_id])


def drop_unused(db: Database, keys: Sequence[str]) -> None:
    """Of the tags keyed ``keys``, those no paper carries (the trash counts as carrying)."""
    cover(db, "tags", "name_key", keys)
    db.execute(f"""DELETE FROM tags WHERE name_key IN ({','.join('?' * len(keys))})
                   AND id NOT IN (SELECT tag_id FROM paper_tags)""", list(keys))


def tag(db: Database, paper_ids: Sequence[int], keys: Sequence[str]) -> int:
    """Give ``paper_ids`` the tags keyed ``keys``; how many marks are new."""
    cover(db, "paper_tags", "paper_id", paper_ids)
    table = load_ids(db, paper_ids)
    return db.execute(
        f"""INSERT OR IGNORE INTO paper_tags (paper_id, tag_id)
            SELECT i.id, t.id FROM {table} i, tags t
            WHERE t.name_key IN ({','.join('?' * len(keys))}) ORDER BY i.id, t.id""",
        list(keys)).rowcount


def untag(db: Database, paper_ids: Sequence[int], keys: Sequence[str]) -> int:
    """Take the tags keyed ``keys`` off ``paper_ids``; how many marks went."""
    cover(db, "paper_tags", "paper_id", paper_ids)
    table = load_ids(db, paper_ids)
    return db.execute(
        f"""DELETE FROM paper_tags
            WHERE paper_id IN (SELECT id FROM {table})
              AND tag_id IN (SELECT id FROM tags WHERE name_key IN
                             ({','.join('?' * len(keys))}))""",
        list(keys)).rowcount


def add_paper_tags(db: Database, pairs: Iterable[tuple[int, int]]) -> None:
    """(paper_id, tag_id) pairs in one ``executemany``; a pair that exists stays."""
    if recording(db) is not None:
        pairs = list(pairs)
        cover(db, "paper_tags", "paper_id", sorted({pid for pid, _ in pairs}))
    db.conn.executemany("INSERT OR IGNORE INTO paper_tags (paper_id, tag_id) VALUES (?, ?)",
                        pairs)


def retag(db: Database, source: int, target: int) -> int:
    """Give every paper tagged ``source`` the tag ``target`` too; how many marks are new."""
    cover(db, "paper_tags", "tag_id", [source, target])
    return db.execute("""INSERT OR IGNORE INTO paper_tags (paper_id, tag_id)
                         SELECT paper_id, ? FROM paper_tags WHERE tag_id = ?""",
                      [target, source]).rowcount


def copy_tags(db: Database, keep: int, others: Sequence[int]) -> None:
    """Give ``keep`` every tag of ``others`` (a merge; theirs go with the papers)."""
    cover(db, "paper_tags", "paper_id", [keep, *others])
    db.execute(f"INSERT OR IGNORE INTO paper_tags (paper_id, tag_id) SELECT ?, tag_id "
               f"FROM paper_tags WHERE paper_id IN ({','.join('?' * len(others))})",
               [keep, *others])

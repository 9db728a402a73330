"""The one module that writes the ``tags`` table and ``paper_tags``, which papers
carry which tag (``tests/test_table_owners.py`` keeps the writes here).

The annotation index follows through triggers, or through ``annotations.in_bulk``
around the set-based statements when many papers are tagged at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from paperdesk.core.db import ids


def add_tags(db: Any, names: Iterable[tuple[str, str]]) -> None:
    """(name, name_key) pairs; a key that exists keeps its spelling. A new tag's id is
    one no tag ever had (``ids``: an undo of a deleted tag puts it back under its own)."""
    first = ids.first_free(db, "tags")
    db.conn.executemany("INSERT OR IGNORE INTO tags (id, name, name_key) VALUES (?, ?, ?)",
                        ((first + n, *pair) for n, pair in enumerate(names)))
    ids.mark_used(db, "tags")


def rename(db: Any, tag_id: int, name: str, key: str) -> None:
    db.execute("UPDATE tags SET name = ?, name_key = ? WHERE id = ?", [name, key, tag_id])


def delete_tag(db: Any, tag_id: int) -> None:
    """A tag and every paper's mark of it."""
    db.execute("DELETE FROM paper_tags WHERE tag_id = ?", [tag_id])
    db.execute("DELETE FROM tags WHERE id = ?", [tag_id])


def drop_unused(db: Any, keys: Sequence[str]) -> None:
    """Of the tags keyed ``keys``, those no paper carries (the trash counts as carrying)."""
    db.execute(f"""DELETE FROM tags WHERE name_key IN ({','.join('?' * len(keys))})
                   AND id NOT IN (SELECT tag_id FROM paper_tags)""", list(keys))


def tag_listed(db: Any, keys: Sequence[str]) -> int:
    """Give the papers of ``temp.ids`` the tags keyed ``keys``; how many marks are new."""
    return db.execute(
        f"""INSERT OR IGNORE INTO paper_tags (paper_id, tag_id)
            SELECT i.id, t.id FROM temp.ids i, tags t
            WHERE t.name_key IN ({','.join('?' * len(keys))}) ORDER BY i.id, t.id""",
        list(keys)).rowcount


def untag_listed(db: Any, keys: Sequence[str]) -> int:
    """Take the tags keyed ``keys`` off the papers of ``temp.ids``; how many marks went."""
    return db.execute(
        f"""DELETE FROM paper_tags
            WHERE paper_id IN (SELECT id FROM temp.ids)
              AND tag_id IN (SELECT id FROM tags WHERE name_key IN
                             ({','.join('?' * len(keys))}))""",
        list(keys)).rowcount


def add_paper_tags(db: Any, pairs: Iterable[tuple[int, int]]) -> None:
    """(paper_id, tag_id) pairs in one ``executemany``; a pair that exists stays."""
    db.conn.executemany("INSERT OR IGNORE INTO paper_tags (paper_id, tag_id) VALUES (?, ?)",
                        pairs)


def retag(db: Any, source: int, target: int) -> int:
    """Give every paper tagged ``source`` the tag ``target`` too; how many marks are new."""
    return db.execute("""INSERT OR IGNORE INTO paper_tags (paper_id, tag_id)
                         SELECT paper_id, ? FROM paper_tags WHERE tag_id = ?""",
                      [target, source]).rowcount


def copy_tags(db: Any, keep: int, others: Sequence[int]) -> None:
    """Give ``keep`` every tag of ``others`` (a merge; theirs go with the papers)."""
    db.execute(f"INSERT OR IGNORE INTO paper_tags (paper_id, tag_id) SELECT ?, tag_id "
               f"FROM paper_tags WHERE paper_id IN ({','.join('?' * len(others))})",
               [keep, *others])

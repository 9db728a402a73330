"""The one module that writes the ``attachments`` table (migration 0028): a paper's
PDFs, a copy kept in the files folder or the user's own file linked
(``core/pdf/store.py`` handles the files themselves; this module only their rows).

Inside an undoable edit each function first images what it writes (``images.cover``):
an attachment's rows by ``paper_id``, its highlights by ``attachment_id``
(``highlights_table``), the one column each table is imaged by in every edit, so that
an attach, a removal, a merge and the trash's emptying can share one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from paperdesk.core.db import highlights_table, ids
from paperdesk.core.db.database import Database, chunks, marks
from paperdesk.core.db.images import cover

COLUMNS = ("id", "paper_id", "kind", "path", "name", "sha256", "size", "pages",
           "arxiv_version", "source", "source_url", "added_at", "last_page")


def _ids_of_papers(db: Database, paper_ids: Sequence[int]) -> list[int]:
    found: list[int] = []
    for part in chunks(list(paper_ids)):
        found.extend(r[0] for r in db.execute(
            f"SELECT id FROM attachments WHERE paper_id IN ({marks(len(part))})", part))
    return found


def cover_papers(db: Database, paper_ids: Sequence[int]) -> None:
    """Image the attachments of ``paper_ids`` and their highlights, before the papers
    are removed for good (which takes them too: ON DELETE CASCADE)."""
    cover(db, "attachments", "paper_id", paper_ids)
    highlights_table.cover_attachments(db, _ids_of_papers(db, paper_ids))


def insert(db: Database, row: Mapping[str, Any]) -> int:
    """A new attachment (``row``: its columns but the id); its id, one no attachment
    ever had (``ids``)."""
    cover(db, "attachments", "paper_id", [row["paper_id"]])
    attachment_id = ids.first_free(db, "attachments")
    names = [c for c in COLUMNS if c != "id" and c in row]
    db.execute(f"INSERT INTO attachments (id, {', '.join(names)}) "
               f"VALUES (?, {marks(len(names))})", [attachment_id, *(row[c] for c in names)])
    ids.mark_used(db, "attachments")
    return attachment_id


def _paper_of(db: Database, attachment_id: int) -> int | None:
    row = db.execute("SELECT paper_id FROM attachments WHERE id = ?",
                     [attachment_id]).fetchone()
    return None if row is None else int(row[0])


def delete(db: Database, attachment_id: int) -> bool:
    """Remove an attachment's row, and its highlights with it; False when there was none.
    (Its stored file stays until the files folder is swept: an undo brings it back.)"""
    pid = _paper_of(db, attachment_id)
    if pid is None:
        return False
    cover(db, "attachments", "paper_id", [pid])
    highlights_table.cover_attachments(db, [attachment_id])
    db.execute("DELETE FROM attachments WHERE id = ?", [attachment_id])
    return True


def set_columns(db: Database, attachment_id: int, values: Mapping[str, Any]) -> None:
    """Set some columns of an attachment (a located file's ``path``, its ``pages``...)."""
    pid = _paper_of(db, attachment_id)
    if pid is None or not values:
        return
    names = [c for c in values if c in COLUMNS and c not in ("id", "paper_id")]
    assert len(names) == len(values), values
    cover(db, "attachments", "paper_id", [pid])
    db.execute(f"UPDATE attachments SET {', '.join(f'{c} = ?' for c in names)} WHERE id = ?",
               [*(values[c] for c in names), attachment_id])


def set_last_page(db: Database, attachment_id: int, page: int | None) -> None:
    """The reading position (0-based page) of an attachment; a plain write outside an
    edit, imaged (that column alone) inside one."""
    pid = _paper_of(db, attachment_id)
    if pid is None:
        return
    cover(db, "attachments", "paper_id", [pid], ("last_page",))
    db.execute("UPDATE attachments SET last_page = ? WHERE id = ?", [page, attachment_id])


def move_attachments(db: Database, keep: int, others: Sequence[int]) -> None:
    """The attachments of ``others`` become ``keep``'s (a merge). A file ``keep`` has
    already (the same SHA-256) is kept once: the other row goes, and its highlights move
    to the row that stays."""
    if not others:
        return
    cover(db, "attachments", "paper_id", [keep, *others])
    rows = db.execute(
        f"SELECT id, paper_id, sha256 FROM attachments WHERE paper_id IN "
        f"({marks(len(others) + 1)}) ORDER BY paper_id != ?, id",
        [keep, *others, keep]).fetchall()
    first: dict[str, int] = {}  # sha256 -> the row that stays
    twins: list[tuple[int, int]] = []  # (row that goes, row that stays)
    for attachment_id, _pid, sha in rows:
        if sha in first:
            twins.append((attachment_id, first[sha]))
        else:
            first[sha] = attachment_id
    if twins:
        highlights_table.move_highlights(db, twins)
        db.conn.executemany("DELETE FROM attachments WHERE id = ?", [[t[0]] for t in twins])
    db.execute(f"UPDATE attachments SET paper_id = ? WHERE paper_id IN "
               f"({marks(len(others))})", [keep, *others])


# -- reads -----------------------------------------------------------------------------

def files_folder(library: Path) -> Path:
    """``NAME.files`` beside the library ``NAME.sqlite``: the stored copies' folder."""
    return library.with_name(library.stem + ".files")


def file_path(library: Path, row: Mapping[str, Any]) -> Path:
    """Where an attachment's PDF is: in the files folder (stored) or the user's path."""
    if row["kind"] == "stored":
        return files_folder(library) / row["path"]
    return Path(row["path"])


def _rows(db: Database, where: str, args: Iterable[Any]) -> list[dict[str, Any]]:
    cursor = db.execute(f"SELECT {', '.join(COLUMNS)} FROM attachments WHERE {where} "
                        "ORDER BY paper_id, id", list(args))
    return [dict(zip(COLUMNS, r, strict=True)) for r in cursor]


def get(db: Database, attachment_id: int) -> dict[str, Any] | None:
    rows = _rows(db, "id = ?", [attachment_id])
    return rows[0] if rows else None


def of_papers(db: Database, paper_ids: Sequence[int]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for part in chunks(list(paper_ids)):
        found.extend(_rows(db, f"paper_id IN ({marks(len(part))})", part))
    return found


def by_sha256(db: Database, sha256: str) -> list[dict[str, Any]]:
    return _rows(db, "sha256 = ?", [sha256])


def every(db: Database) -> list[dict[str, Any]]:
    return _rows(db, "1", [])


def paths_in_merges(db: Database) -> set[str]:
    """The stored files the undo of a merge would give an attachment back (an identical
    file a merge kept once): the files folder keeps them."""
    return {r[0] for r in db.execute(
        """SELECT json_extract(r.value, '$.path') FROM merges m,
               json_each(m.undo, '$.images') i, json_each(i.value, '$.before') r
           WHERE json_extract(i.value, '$.table') = 'attachments'
             AND json_extract(r.value, '$.kind') = 'stored'""")}

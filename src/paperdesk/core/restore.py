"""Putting a backup back as the library.

Restoring checks that the file is a PaperDesk library this version can open
and not damaged. Then, under the library's write lock (taken first and held to
the end), it keeps a copy of the library as it is in the backups folder and
writes the backup's pages into the library through SQLite's backup API. So a
write by another program lands before the lock (and is in the kept copy) or
waits for the lock and, after the busy timeout, fails loudly; a program that
has the library open sees the restored library on its next read instead of a
file swapped from under it.

A library that is missing or damaged is replaced whole (the damaged one and its
-wal/-shm moved to the backups folder first, so no stale -wal is ever paired
with the restored file). A disk that is read-only or full is one line.
"""

from __future__ import annotations

import errno
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from paperdesk.core import dbfile, files, schema
from paperdesk.core.backup import (
    PARTIAL,
    _give_up_when_busy,
    _read_only,
    _stamp,
    _unique,
    backup_library,
    backups_folder,
    check_backup,
    library_mode,
)
from paperdesk.core.errors import LibraryError


@dataclass
class RestoreReport:
    library: Path
    restored_from: Path
    papers: int
    previous: Path | None  # where the library as it was before the restore was kept


def _disk_error(library: Path, exc: OSError) -> LibraryError:
    reason = {errno.EROFS: "the disk is read-only", errno.ENOSPC: "the disk is full",
              errno.EACCES: "permission denied", errno.EPERM: "permission denied"}.get(
        exc.errno or 0, exc.strerror or str(exc))
    return LibraryError(f"{library}: cannot restore ({reason}); nothing was changed")


def restore(backup: Path, library: Path) -> RestoreReport:
    """Put the backup at ``backup`` back as the library at ``library``."""
    info = check_backup(backup)
    library = Path(library).absolute()
    if library == info.path:
        raise LibraryError(f"{library}: that is the library itself")
    if not library.parent.is_dir():
        raise LibraryError(f"{library}: the folder {library.parent} does not exist")
    state = _library_state(library)
    folder = backups_folder(library)
    try:
        folder.mkdir(exist_ok=True)
    except OSError as exc:
        raise _disk_error(library, exc) from None
    previous = None
    if state == "library":
        previous = _unique(folder / f"{library.stem}.before-restore-{_stamp()}.sqlite")
        _write_pages(info.path, library, previous)
    else:
        if files.has_connections(library):
            raise LibraryError(f"{library}: this program has the library open; close it "
                               "before restoring; nothing was changed")
        previous = _keep_aside(library, "damaged" if state == "damaged" else "orphan")
        _replace_file(info.path, library)
    conn = _read_only(library)
    try:
        papers = conn.execute("SELECT count(*) FROM papers").fetchone()[0]
    finally:
        conn.close()
    return RestoreReport(library, info.path, papers, previous)


def _library_state(library: Path) -> str:
    """"missing", "library" (a healthy PaperDesk library) or "damaged" (an SQLite
    file that cannot be read); a file that is something else is refused."""
    if not library.exists() or library.stat().st_size == 0:
        return "missing"
    try:
        dbfile.check_file(library)
    except LibraryError:
        raise LibraryError(f"{library}: not a PaperDesk library (not an SQLite file); "
                           "not replacing it") from None
    try:
        conn = _read_only(library)
        try:
            ok = conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc) or "busy" in str(exc):
            raise dbfile.translate(exc, library) from None
        return "damaged"
    except sqlite3.DatabaseError:
        return "damaged"
    if not ok:
        return "damaged"
    if app_id != schema.APPLICATION_ID and tables:
        raise LibraryError(f"{library}: another program's database, not a PaperDesk library; "
                           "not replacing it")
    return "library"


def _write_pages(backup: Path, library: Path, previous: Path) -> None:
    """Copy the backup's pages into the live library, keeping it first at ``previous``.

    The backup runs page by page: its first step takes the library's write lock
    (waiting up to the busy timeout, else "busy" and nothing changes) and holds
    it to the end; right after that step, before anything is committed, the
    library as it is (every write that got in first) is copied to ``previous``.
    """
    source = _read_only(backup)
    try:
        if source.execute("PRAGMA page_count").fetchone()[0] < 2:
            raise LibraryError(f"{backup}: not a PaperDesk backup (too small)")
        target = dbfile.connect(library)
    except BaseException:
        source.close()
        raise
    kept: list[Path] = []

    def step(status: int, remaining: int, total: int) -> None:
        _give_up_when_busy(status, remaining, total)
        if not kept:  # the write lock is ours from the first step until the end
            kept.append(backup_library(library, previous))

    try:
        source.backup(target, pages=1, progress=step)
    except sqlite3.Error as exc:
        raise dbfile.translate(exc, library) from None
    finally:
        target.close()
        source.close()
    if not kept:
        raise LibraryError(f"{library}: the restore did not keep the library first")


def _keep_aside(library: Path, what: str) -> Path | None:
    """Move a damaged library, or -wal/-shm files left without one, into the backups
    folder as they are; nothing is left to be paired with the restored file."""
    sides = [Path(f"{library}{s}") for s in ("-wal", "-shm", "-journal")]
    present = [p for p in [library, *sides] if p.exists()]
    if not present:
        return None
    kept = _unique(backups_folder(library) / f"{library.stem}.{what}-{_stamp()}.sqlite")
    try:
        for path in present:
            suffix = path.name[len(library.name):]
            with files.atomic_write(Path(f"{kept}{suffix}"), kind=PARTIAL,
                                    max_mode=library_mode(library)) as temp:
                shutil.copyfile(path, temp)
        for path in present:
            if path != library:
                path.unlink()
    except OSError as exc:
        raise _disk_error(library, exc) from None
    return kept


def _replace_file(backup: Path, library: Path) -> None:
    """Where there is no usable library: copy the backup in whole, then rename it into place."""
    try:
        with files.atomic_write(library, kind=PARTIAL) as temp:
            shutil.copyfile(backup, temp)
    except OSError as exc:
        raise _disk_error(library, exc) from None

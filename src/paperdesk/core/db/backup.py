"""Copies of a library: backups while it is in use, before upgrades, and restoring one.

A backup is made with SQLite's online backup API in a single step, under one
read transaction on a connection of its own: the copy is the library as it was
at one moment, whatever other connections (the app's worker, a CLI import) are
writing meanwhile. It is written to a hidden file beside the destination,
checked, and only then renamed into place, so a crash never leaves half a
backup under the final name. Backups are plain rollback-journal files: one
file, nothing beside it.

Restoring checks that the file is a PaperDesk library this version can open
and not damaged, keeps a copy of the current library in the backups folder,
then writes the backup's pages into the library through the same API, under
the library's write lock, so a program that has it open sees the restored
library on its next read instead of a file swapped from under it.
"""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from paperdesk.core.db import connection, dbfile, files, read_only, schema
from paperdesk.core.model.errors import LibraryError

BACKUP_FOLDER = "backups"
PARTIAL = "partial"  # the ending of a backup being written


def backups_folder(library: Path) -> Path:
    """Where backups of ``library`` go by default: a ``backups`` folder beside it."""
    return Path(library).absolute().parent / BACKUP_FOLDER


def _stamp() -> str:
    return datetime.now().strftime("%Y%m%d-%H%M%S")


def _unique(path: Path) -> Path:
    """``path``, or ``name-2.sqlite``, ``name-3.sqlite``... if it is taken."""
    candidate, n = path, 1
    while candidate.exists():
        n += 1
        candidate = path.with_name(f"{path.stem}-{n}{path.suffix}")
    return candidate


def default_backup_path(library: Path) -> Path:
    """A new timestamped file in the backups folder beside ``library``."""
    library = Path(library).absolute()
    return _unique(backups_folder(library) / f"{library.stem}-{_stamp()}.sqlite")


def _read_only(path: Path) -> sqlite3.Connection:
    """A connection that cannot change the file (a ``mode=ro`` URI)."""
    return dbfile.connect(path, mode="ro")


def _give_up_when_busy(status: int, remaining: int, total: int) -> None:
    """Stop a backup step that found the database locked (after the busy timeout)
    instead of retrying for ever."""
    if status in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        raise sqlite3.OperationalError("database is locked")


def library_mode(library: Path) -> int:
    """The permission bits a copy of ``library`` may have at most: its own, and writable
    by its owner (a copy of a read-only library, mode 0444, is still written)."""
    try:
        return (os.stat(library).st_mode & 0o666) | 0o200
    except OSError:
        return 0o600


def folder_mode(library: Path) -> int:
    """A folder beside ``library`` (of its files folder): the library's read bits, with
    the search bit where one may read (0o644 -> 0o755, 0o600 -> 0o700)."""
    mode = library_mode(library) & 0o666
    return mode | ((mode & 0o444) >> 2)


def copy_database(source: sqlite3.Connection, dest: Path, *, max_mode: int = 0o666) -> Path:
    """Write a consistent copy of the database open on ``source`` to ``dest``
    (whole or not at all; never more readable than ``max_mode``)."""
    dest = Path(dest).absolute()
    if dest.is_dir():
        raise LibraryError(f"{dest}: is a folder; give a file name for the backup")
    if not dest.parent.is_dir():
        raise LibraryError(f"{dest}: the folder {dest.parent} does not exist")
    try:
        with files.atomic_write(dest, kind=PARTIAL, max_mode=max_mode) as partial:
            target = connection.connect(partial)
            try:
                # pages=-1: every page in one step, under one read transaction.
                source.backup(target, progress=_give_up_when_busy)
                target.execute("PRAGMA journal_mode = DELETE").fetchone()
                check = target.execute("PRAGMA quick_check").fetchone()[0]
            finally:
                target.close()
            if check != "ok":
                raise LibraryError(f"the library is damaged ({check.strip().splitlines()[-1]}); "
                                   f"no backup written to {dest}; nothing was changed")
    except sqlite3.Error as exc:
        raise LibraryError(f"cannot write the backup {dest} ({exc}); nothing was changed") \
            from None
    except OSError as exc:
        raise LibraryError(f"cannot write the backup {dest} ({exc.strerror or exc}); "
                           "nothing was changed") from None
    return dest


def backup_library(library: Path, dest: Path | None = None, *,
                   holder: sqlite3.Connection | None = None) -> Path:
    """Back up the library file at ``library`` to ``dest`` (default: a new timestamped
    file in the backups folder beside it). Safe while other connections write.
    ``holder``: a connection of this process that has the library to itself (on a full
    disk, ``read_only``): the copy is read through it."""
    library = Path(library).absolute()
    if dest is None:
        dest = default_backup_path(library)
        try:
            dest.parent.mkdir(exist_ok=True)
        except OSError as exc:
            raise LibraryError(f"cannot make the backups folder {dest.parent} "
                               f"({exc.strerror}); nothing was changed") from None
        # Leftovers of backups killed half-way, whatever their name.
        files.clean_leftovers(dest.parent, files.temp_pattern(".+", PARTIAL, literal=False))
    dest = Path(dest).absolute()
    if dest == library:
        raise LibraryError(f"{dest}: that is the library itself; choose another file")
    if holder is not None:
        return copy_database(holder, dest, max_mode=library_mode(library))
    try:  # read on a read-only or full disk too: the copy goes elsewhere
        source = read_only.reading_connection(library, dbfile.BUSY_TIMEOUT_S)
    except sqlite3.Error as exc:
        raise dbfile.translate(exc, library) from None
    try:
        return copy_database(source, dest, max_mode=library_mode(library))
    finally:
        source.close()


def before_upgrade(library: Path, migration: str) -> Path:
    """The automatic copy taken before an existing library is upgraded:
    ``backups/<name>.before-<migration>.sqlite`` beside it. If it cannot be
    written the upgrade does not happen.

    Made on a connection of its own: the caller holds the write lock (readers
    still get in), and SQLite cannot copy from a connection inside a write
    transaction."""
    library = Path(library).absolute()
    folder = backups_folder(library)
    try:
        folder.mkdir(exist_ok=True)
    except OSError as exc:
        raise LibraryError(f"{library}: needs an upgrade, but the backup folder {folder} "
                           f"cannot be made ({exc.strerror}); nothing was changed") from None
    return backup_library(library, _unique(folder / f"{library.stem}.before-{migration}.sqlite"))


@dataclass
class BackupInfo:
    path: Path
    papers: int
    schema: list[str]
    pending: list[str]  # migrations the next open will apply


def check_backup(path: Path) -> BackupInfo:
    """Confirm ``path`` is an undamaged PaperDesk library this version can open."""
    path = Path(path).absolute()
    if not path.is_file():
        raise LibraryError(f"{path}: no such backup file")
    if not dbfile.check_file(path):
        raise LibraryError(f"{path}: empty file, not a PaperDesk backup")
    try:
        conn = _read_only(path)
    except sqlite3.Error as exc:
        raise LibraryError(f"{path}: cannot be read ({exc})") from None
    try:
        check = conn.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise LibraryError(f"{path}: the backup is damaged "
                               f"({check.strip().splitlines()[-1]})")
        from paperdesk.core.db.database import Database

        db = Database(conn)
        dbfile.check_identity(db, path)
        if conn.execute("PRAGMA application_id").fetchone()[0] != schema.APPLICATION_ID:
            raise LibraryError(f"{path}: not a PaperDesk library (an empty database)")
        papers = conn.execute("SELECT count(*) FROM papers").fetchone()[0]
        return BackupInfo(path, papers, dbfile.applied(db), dbfile.pending_migrations(db))
    except sqlite3.DatabaseError as exc:
        raise LibraryError(f"{path}: not a PaperDesk backup ({exc})") from None
    finally:
        conn.close()


# -- restoring -------------------------------------------------------------------------

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
    converted: Path | None = None
    try:
        if source.execute("PRAGMA page_count").fetchone()[0] < 2:
            raise LibraryError(f"{backup}: not a PaperDesk backup (too small)")
        target = dbfile.connect(library)
    except BaseException:
        source.close()
        raise
    try:
        source, converted = _at_page_size(source, target, library)
    except BaseException:
        target.close()
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
        if converted is not None:
            converted.unlink(missing_ok=True)
    if not kept:
        raise LibraryError(f"{library}: the restore did not keep the library first")


def _at_page_size(source: sqlite3.Connection, target: sqlite3.Connection, library: Path
                  ) -> tuple[sqlite3.Connection, Path | None]:
    """The backup to copy from at the live library's page size: SQLite copies pages into
    a library in WAL mode only at its own size (new libraries have 16 KiB pages, older
    ones 4 KiB). Of another size, the backup is first written out again at the library's
    (``VACUUM INTO`` a file in the backups folder, removed after the copy)."""
    size = source.execute("PRAGMA page_size").fetchone()[0]
    wanted = target.execute("PRAGMA page_size").fetchone()[0]
    if size == wanted:
        return source, None
    converted = _unique(backups_folder(library) / f"{library.stem}.restoring-{_stamp()}.sqlite")
    try:
        source.execute(f"PRAGMA page_size = {int(wanted)}")
        source.execute("VACUUM INTO ?", [str(converted)])
    except sqlite3.Error as exc:
        converted.unlink(missing_ok=True)
        raise dbfile.translate(exc, library) from None
    finally:
        source.close()
    return _read_only(converted), converted


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
            # (new files in the backups folder, some named -wal/-shm: allowed here)
            with files.atomic_write(Path(f"{kept}{suffix}"), kind=PARTIAL, database=True,
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
        # The one writer allowed over a database: the damaged one was kept aside first.
        with files.atomic_write(library, kind=PARTIAL, database=True) as temp:
            shutil.copyfile(backup, temp)
    except OSError as exc:
        raise _disk_error(library, exc) from None

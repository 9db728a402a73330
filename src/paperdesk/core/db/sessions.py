"""Which programs have a library open: an unclean shutdown told from another program's use.

Each process that opens a library to write leaves a marker named after itself
(process id and start time) in ``open/KEY/`` of the data folder (KEY from the file's
identity, its device and inode: the same file reached through a link or another
path has the same markers), and removes it
when its last connection to the library has closed. A marker whose process is
gone means that process ended with the library open: killed, crashed, or the
machine went down. The next program to open the library then runs ``PRAGMA
quick_check`` (reading the whole file) before anything else; a normal open pays
for one small folder listing. A marker of a process still running is another
program using the library, and is left alone. A marker says how many migrations its
program knows (``migrations N``; none in markers of PaperDesk before 0016): a library is
not upgraded while a program that knows fewer has it open (``older_programs``), since that
program would go on reading and writing it as it was. Markers of every layout PaperDesk
has written count: by identity with a count, by identity without one, and, before
markers by identity, in a folder keyed by the library's absolute path
(``legacy_folders``).

When the check finds damage, a ``damaged`` marker stays until a check passes
(after ``paperdesk restore``), so every open checks again and writes stay refused
(``dbfile.write``) with a message pointing at the backups.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sqlite3
import threading
from pathlib import Path

from paperdesk.core.db import files, schema
from paperdesk.core.db.database import Database
from paperdesk.core.db.paths import data_dir

MARKERS = "open"
DAMAGED = "damaged"

_lock = threading.Lock()
_held: dict[Path, int] = {}  # marker folder -> connections of this process holding it
_found: dict[Path, str] = {}  # marker folder -> the damage this process found


def folder(library: Path) -> Path:
    """The markers of ``library``: by the file's identity (device, inode), whatever the
    path it is reached by; by its absolute path while there is no file."""
    ident = files.identity(library)
    name = (f"{ident[0]}:{ident[1]}" if ident is not None
            else os.path.abspath(library))
    key = hashlib.sha256(name.encode("utf-8", "surrogateescape"))
    return data_dir() / MARKERS / key.hexdigest()[:24]


def _start_time(pid: int) -> str | None:
    """When process ``pid`` started (clock ticks since boot on Linux, hundredths of a
    second since the epoch elsewhere); "0" where the system does not say; None when
    there is no such process."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
        return stat.rsplit(b")", 1)[1].split()[19].decode()
    except FileNotFoundError:
        if os.path.isdir("/proc/self"):
            return None
    except (OSError, IndexError):
        pass
    import psutil  # elsewhere than Linux: the portable way (no signal is sent)

    try:
        return str(round(psutil.Process(pid).create_time() * 100))
    except psutil.NoSuchProcess:
        return None
    except psutil.Error:
        return "0"  # it exists, and the system does not say more


_mine: tuple[int, str] | None = None


def marker_name() -> str:
    """This process's marker: its id and start time."""
    global _mine
    pid = os.getpid()
    if _mine is None or _mine[0] != pid:
        _mine = (pid, f"{pid}-{_start_time(pid) or '0'}")
    return _mine[1]


def _gone(name: str) -> bool:
    """Whether the process a marker names has ended (a pid reused since does not count)."""
    pid, _, start = name.partition("-")
    if not pid.isdigit():
        return False  # not a marker of ours
    now = _start_time(int(pid))
    return now is None or (start != "0" and now != "0" and now != start)


def enter(where: Path, library: Path) -> list[str]:
    """Mark this process as having ``library`` (its markers in ``where``) open. The
    markers that call for a check: those of processes gone without closing it, and
    ``damaged``; none when this process has it open already (it checked then)."""
    with _lock:
        count = _held.get(where, 0)
        _held[where] = count + 1
        if count:
            return []
        try:
            names = os.listdir(where)
        except OSError:
            names = []
        due = [n for n in names if n == DAMAGED or _gone(n)]
        with contextlib.suppress(OSError):
            where.mkdir(parents=True, exist_ok=True)
            mine = where / marker_name()
            mine.write_text(f"{library}\n{_KNOWS}{len(schema.MIGRATIONS)}\n", encoding="utf-8")
        return due


_KNOWS = "migrations "


def legacy_folders(library: Path) -> list[Path]:
    """Where a PaperDesk before markers by identity (``folder``) put the markers of
    ``library``: under its absolute path as that program was given it, here the path
    as given and the one its links lead to."""
    names = dict.fromkeys((os.path.abspath(library), os.path.realpath(library)))
    return [data_dir() / MARKERS / hashlib.sha256(
        name.encode("utf-8", "surrogateescape")).hexdigest()[:24] for name in names]


def running_users(where: Path) -> list[str]:
    """The markers in ``where`` of other programs still running."""
    try:
        names = os.listdir(where)
    except OSError:
        return []
    return [name for name in names if name.partition("-")[0].isdigit()
            and name != marker_name() and not _gone(name)]


def older_programs(library: Path) -> list[str]:
    """The markers of other programs still running with ``library`` open that know
    fewer migrations than this one, in every layout PaperDesk has written them: by
    the file's identity (``folder``), and by its path (before 0016: no count at all)."""
    older = older_users(folder(library))
    for where in legacy_folders(library):
        older += running_users(where)
    return older


def older_users(where: Path) -> list[str]:
    """The markers in ``where`` of other programs still running that know fewer
    migrations than this one (a PaperDesk before 0016 wrote no count at all). A marker
    being written this instant (empty) is not counted."""
    older = []
    for name in running_users(where):
        try:
            text = (where / name).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue  # gone meanwhile, or not a marker
        known = [line[len(_KNOWS):] for line in text.splitlines() if line.startswith(_KNOWS)]
        if text and not (known and known[0].isdigit()
                         and int(known[0]) >= len(schema.MIGRATIONS)):
            older.append(name)
    return older


def leave(where: Path) -> None:
    """One connection of this process to the library of the markers ``where`` closed;
    the last removes the marker (the folder found at open: the file may be gone now)."""
    with _lock:
        count = _held.get(where, 0) - 1
        if count > 0:
            _held[where] = count
            return
        _held.pop(where, None)
        _found.pop(where, None)
        with contextlib.suppress(OSError):
            (where / marker_name()).unlink()


def damage_found(where: Path) -> str | None:
    """The damage a check in this process found in the library of the markers ``where``,
    while it holds it open."""
    with _lock:
        return _found.get(where)


def settle(where: Path, checked: list[str], damage: str | None) -> None:
    """After a check: the markers that called for it go; ``damaged`` stays while the
    file is damaged."""
    with _lock:
        if damage is not None:
            _found[where] = damage
        for name in checked:
            if name != DAMAGED:
                with contextlib.suppress(OSError):
                    (where / name).unlink()
        with contextlib.suppress(OSError):
            if damage is None:
                (where / DAMAGED).unlink(missing_ok=True)
            else:
                (where / DAMAGED).write_text(damage + "\n", encoding="utf-8")


def damaged_message(path: Path, damage: str) -> str:
    backups = path.parent / "backups"
    return (f"{path}: the library file is damaged ({damage}); PaperDesk reads it but will not "
            f"write to it. Put a backup back with `paperdesk restore FILE` (backups are in "
            f"{backups})")


def check_after_crash(db: Database, path: Path) -> bool:
    """Hold this process's marker of ``path`` (released when the connection closes)
    and check the file when a program ended with it open; whether it checked."""
    conn = db.conn
    where = folder(path)
    due = enter(where, path)
    conn.session = where  # type: ignore[attr-defined]  # a connection.Connection
    damage = damage_found(where)
    if due:
        try:
            found = db.execute("PRAGMA quick_check").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            found = str(exc)
        damage = None if found == "ok" else found.strip().splitlines()[-1]
        settle(where, due, damage)
        conn.checked = True  # type: ignore[attr-defined]
        import logging  # only after a crash: an ordinary open need not load it

        logging.getLogger("paperdesk").info("%s: checked after an unclean shutdown: %s",
                                            path, damage or "ok")
    if damage is not None:
        conn.damaged = damaged_message(path, damage)  # type: ignore[attr-defined]
        db.execute("PRAGMA query_only = 1")
    return bool(due)

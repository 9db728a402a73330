"""The files PaperDesk touches: which library files this process has open, and
writing every other file whole or not at all.

Closing any descriptor of a file drops every POSIX lock the process holds on
it, including SQLite's (SQLite, "How To Corrupt An SQLite Database File",
2.2). So a library file, its ``-wal`` or ``-shm`` is never opened with
``open()`` while this process has an SQLite connection to it: connections are
counted here by file identity (device, inode), and a file's header is read
outside SQLite only under the same lock and only when no connection to it
exists. Other readers of files (imports) ask ``in_use`` first.

``atomic_write`` is the one way PaperDesk writes a file of its own (exports,
backups, its list of libraries): a temporary file in the same folder, synced,
renamed over the destination, and the folder synced. It refuses any
destination that is, or links to, an open library, its ``-wal``/``-shm``, or a
file being written at that moment; and any database at all, whichever program
holds it (``refuse_database``: an SQLite file, a library PaperDesk has had, a
``-wal``/``-shm``/``-journal`` name) and anything that is not a regular file,
so no export, sync or backup can replace a library, a backup or a rescued copy.
A file replaced keeps its mode; a new one follows the umask (and may be made
less readable, e.g. a backup never more readable than its library). Temporary
files left by a killed run are removed by the next run that writes beside them.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from paperdesk.core.db.paths import data_dir
from paperdesk.core.model.errors import LibraryError

Identity = tuple[int, int]
SIDE_SUFFIXES = ("-wal", "-shm", "-journal")

_lock = threading.RLock()
_open: dict[Identity, list] = {}  # identity -> [connections, path]
_writing: set[str] = set()        # real paths being written now (destinations and temp files)


def identity(path: str | os.PathLike[str]) -> Identity | None:
    """(st_dev, st_ino) of the file at ``path`` (following links), or None if there is none."""
    try:
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:  # a loop of links, a name too long...
        raise LibraryError(f"{path}: cannot be looked at ({exc.strerror}); nothing was "
                           "read or written") from None
    return st.st_dev, st.st_ino


# -- library files with connections in this process ---------------------------------

@contextlib.contextmanager
def registry() -> Iterator[None]:
    """Held while a connection is opened or a library header is read."""
    with _lock:
        yield


def register(ident: Identity, path: Path) -> None:
    with _lock:
        entry = _open.setdefault(ident, [0, path])
        entry[0] += 1


def unregister(ident: Identity) -> None:
    with _lock:
        entry = _open.get(ident)
        if entry is not None:
            entry[0] -= 1
            if entry[0] <= 0:
                del _open[ident]


def connections(ident: Identity) -> int:
    with _lock:
        entry = _open.get(ident)
        return entry[0] if entry else 0


def has_connections(path: str | os.PathLike[str]) -> bool:
    with _lock:
        ident = identity(path)
        return ident is not None and ident in _open


def read_header(path: Path, size: int = 16) -> bytes | None:
    """The first bytes of ``path``; None when this process has it open through SQLite
    (it was checked when first opened; SQLite reads it from then on)."""
    with _lock:
        ident = identity(path)
        if ident in _open:
            return None
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
        try:
            return os.read(fd, size)
        finally:
            os.close(fd)


def _side_identities() -> dict[Identity, Path]:
    """Every file of the open libraries: the library, its -wal, -shm and -journal."""
    found: dict[Identity, Path] = {}
    for ident, (_n, path) in list(_open.items()):
        found[ident] = path
        for suffix in SIDE_SUFFIXES:
            side = Path(f"{path}{suffix}")
            side_ident = identity(side)
            if side_ident is not None:
                found[side_ident] = side
    return found


def _library_file_named(path: Path) -> Path | None:
    """The open library ``path`` names: itself, or by a -wal/-shm/-journal name beside it."""
    real = Path(os.path.realpath(path))
    with _lock:
        ident = identity(real)
        files = _side_identities()
        if ident is not None and ident in files:
            return files[ident]
        for suffix in SIDE_SUFFIXES:
            if real.name.endswith(suffix):
                base = identity(real.with_name(real.name[:-len(suffix)]))
                if base is not None and base in _open:
                    return real
    return None


def in_use(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is (or links to) a library file this process has open."""
    return _library_file_named(Path(path)) is not None


def refuse_destination(dest: Path, shown: Path | None = None, *,
                       database: bool = False) -> None:
    """LibraryError when writing ``dest`` would overwrite an open library, one of
    its -wal/-shm/-journal files, or a file being written at this moment
    (``shown``: the path as the user gave it); and, unless ``database`` (restore
    putting a library back), when ``dest`` is or links to any database
    (``refuse_database``) or is not a regular file."""
    shown = shown or dest
    found = _library_file_named(dest)
    if found is not None:
        side = next((s for s in SIDE_SUFFIXES if found.name.endswith(s)), None)
        what = f"the open library's {side} file" if side else "the open library"
        how = "links to" if os.path.islink(shown) else "is"
        where = f" ({found})" if os.path.abspath(shown) != str(found) else ""
        raise LibraryError(f"{shown}: {how} {what}{where}; choose another file; "
                           "nothing was written")
    with _lock:
        if os.path.realpath(dest) in _writing:
            raise LibraryError(f"{dest}: is being written by another job; choose another file; "
                               "nothing was written")
    if not database:
        refuse_database(dest, shown)


SQLITE_MAGIC = b"SQLite format 3\x00"
KNOWN_RECORD = "libraries.txt"  # the libraries PaperDesk has had (``known.py``)


def _known_libraries() -> set[str]:
    """The libraries PaperDesk has had, as written and with links resolved."""
    try:
        text = (data_dir() / KNOWN_RECORD).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return set()
    names = {line for line in text.splitlines() if line}
    return names | {os.path.realpath(n) for n in names}


def refuse_database(dest: Path, shown: Path | None = None) -> None:
    """LibraryError when ``dest`` (or what it links to) is a database or one of its
    files, whichever program has it: a name ending -wal, -shm or -journal, a library
    PaperDesk has had, an SQLite file (a library, a backup, a rescued copy, another
    program's), or anything that is not a regular file (a FIFO, a device, a socket,
    a folder). Reads at most the first 16 bytes, never waiting."""
    shown = shown or dest
    real = os.path.realpath(dest)
    how = "links to" if os.path.islink(shown) else "is"
    where = f" ({real})" if os.path.abspath(shown) != real else ""
    names = (os.path.basename(os.path.abspath(shown)), os.path.basename(real))
    side = next((s for s in SIDE_SUFFIXES for n in names if n.endswith(s)), None)
    why: str | None
    if side:
        why = f"a name ending {side} (an SQLite database's own file)"
    elif {os.path.abspath(shown), real} & _known_libraries():
        why = f"{how} a PaperDesk library{where}"
    else:
        why = _not_writable_kind(real, how, where)
    if why:
        raise LibraryError(f"{shown}: {why}; choose another file; nothing was written")


def _not_writable_kind(real: str, how: str, where: str) -> str | None:
    try:
        st = os.stat(real)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        return f"cannot be checked ({exc.strerror})"
    if stat.S_ISDIR(st.st_mode):
        return f"{how} a folder{where}"
    if not stat.S_ISREG(st.st_mode):
        return f"{how} {file_kind(st.st_mode)}{where}, not a regular file"
    try:
        head = read_header(Path(real))
    except OSError:
        return None  # unreadable: not read, and the write itself will say why
    if head is None or head.startswith(SQLITE_MAGIC):
        return f"{how} a database (an SQLite file: a library, a backup?){where}"
    return None


def file_kind(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISDIR, "a folder")):
        if test(mode):
            return name
    return "not a regular file"


def open_regular(path: Path) -> int | None:
    """A read-only descriptor of the regular file at ``path`` (links followed), opened
    without waiting (a FIFO put there after a check cannot hang it); None if there is
    no file; LibraryError for anything that is not a regular file."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except (FileNotFoundError, NotADirectoryError):
        return None
    except IsADirectoryError:
        raise LibraryError(f"{path}: is a folder, not a file") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise LibraryError(f"{path}: is {file_kind(mode)}, not a regular file; "
                           "nothing was read or written")
    return fd


# -- writing a file whole ---------------------------------------------------------------

def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    import psutil  # portable: signal 0 through os.kill would end the process on Windows

    return psutil.pid_exists(pid)


def clean_leftovers(folder: Path, pattern: str, *, stale_after: float = 3600.0) -> list[Path]:
    """Remove temporary files of killed runs in ``folder``: names matching ``pattern``
    (a regex) whose process (its group ``pid``) is gone, or, for names that carry no
    process id (older PaperDesk), not touched for ``stale_after`` seconds."""
    removed: list[Path] = []
    regex = re.compile(pattern)
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    now = time.time()
    for name in names:
        match = regex.fullmatch(name)
        if not match:
            continue
        pid = match.groupdict().get("pid")
        with contextlib.suppress(OSError):
            if (not _pid_alive(int(pid))) if pid else \
                    now - os.lstat(folder / name).st_mtime > stale_after:
                os.unlink(folder / name)
                removed.append(folder / name)
    return removed


def temp_pattern(dest_name: str, kind: str, *, literal: bool = True) -> str:
    """The names of ``kind`` (tmp, partial) temporary files for ``dest_name`` (a regex
    when not ``literal``)."""
    name = re.escape(dest_name) if literal else dest_name
    # ".NAME.PID.xRANDOM.KIND" (older PaperDesk: ".NAME.PID.KIND"), and SQLite's journal of it
    return rf"\.{name}\.(?P<pid>\d+)(\.x[0-9a-f]{{8}})?\.{kind}(-journal)?"


def fsync_path(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):  # some filesystems cannot sync a folder
        fsync_path(folder)


def swap_in(temp: Path, dest: Path, side: Path) -> bool:
    """Put ``temp`` at ``dest`` in one rename; True when a file was at ``dest`` and
    ``side`` now holds it: a hard link to that very file (checked to be the one at
    ``dest``) made just before the rename, so even what a program writes into it
    afterwards, through a descriptor it still has, is there to be read. Where the
    filesystem has no hard links, ``side`` is a copy taken just before. False: no
    file was at ``dest`` (and none put there meanwhile is replaced, where links exist).
    (Only a file renamed over ``dest`` between the check of the link and the rename,
    two system calls apart, is replaced unseen: no portable call exchanges two files.)"""
    for _ in range(100):
        try:
            os.link(dest, side)
        except FileNotFoundError:
            try:
                os.link(temp, dest)  # never over a file someone puts there meanwhile
                return False
            except FileExistsError:
                continue
            except OSError:  # no hard links here
                os.replace(temp, dest)
                return False
        except FileExistsError:
            raise
        except OSError:  # no hard links here (EPERM, ENOTSUP, EMLINK...): a copy
            import shutil  # rarely: an open need not load it

            try:
                shutil.copyfile(dest, side)
            except FileNotFoundError:
                continue
            os.replace(temp, dest)
            return True
        if identity(side) == identity(dest):
            os.replace(temp, dest)
            return True
        os.unlink(side)  # replaced meanwhile: hold the newer one
    raise OSError(f"{dest}: kept changing while being replaced; nothing was written")


@contextlib.contextmanager
def atomic_write(dest: Path, *, kind: str = "tmp", max_mode: int = 0o7777,
                 database: bool = False,
                 replaced: Callable[[Path], None] | None = None) -> Iterator[Path]:
    """Yield a temporary path beside ``dest`` to write; on success it becomes ``dest``.

    The temporary file exists (empty) when yielded, with its final mode: ``dest``'s
    if it exists, else the umask's, limited to ``max_mode``.
    On an error it is removed and ``dest`` is untouched. ``dest`` is never a
    database (``refuse_database``) unless ``database`` (restore putting a library back).
    ``replaced``: the file replaced is held (``swap_in``) and this is called with the
    path that holds it; what it leaves there is removed.
    """
    # Not normalised: "away/../refs.bib", where away is a link, is the refs.bib beside
    # what away links to (as the kernel reads it), not the one beside away.
    dest = Path(dest).absolute()
    folder = Path(os.path.realpath(dest.parent))
    real_dest = folder / dest.name
    if os.path.islink(dest):
        real_dest = Path(os.path.realpath(dest))
        folder = real_dest.parent
    refuse_destination(real_dest, dest, database=database)
    clean_leftovers(folder, temp_pattern(real_dest.name, kind))
    if kind == "tmp":  # older PaperDesk's exports: ".NAME.RANDOM.tmp", no process id
        clean_leftovers(folder, rf"\.{re.escape(real_dest.name)}\.[a-z0-9_]{{8}}\.tmp")
    temp, side = (folder / f".{real_dest.name}.{os.getpid()}.x{os.urandom(4).hex()}.{kind}"
                  for _ in range(2))
    with _lock:
        if str(real_dest) in _writing:
            raise LibraryError(f"{dest}: is being written by another job; choose another file; "
                               "nothing was written")
        _writing.update((str(real_dest), str(temp)))
    try:
        try:
            existing: int | None = os.stat(real_dest).st_mode & 0o7777
        except FileNotFoundError:
            existing = None
        # A new file: the umask applies (os.open); an existing file's mode is kept exactly.
        fd = os.open(temp, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666 & max_mode)
        os.close(fd)
        if existing is not None:
            os.chmod(temp, existing & max_mode)
        yield temp
        fsync_path(temp)
        if replaced is None:
            os.replace(temp, real_dest)
        elif swap_in(temp, real_dest, side):
            replaced(side)
        fsync_folder(folder)
    finally:
        for leftover in (temp, side, Path(f"{temp}-journal")):
            with contextlib.suppress(OSError):
                os.unlink(leftover)
        with _lock:
            _writing.difference_update((str(real_dest), str(temp)))

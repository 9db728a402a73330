"""A write-ahead log under a library's name that was not written on that file.

SQLite replays whatever -wal it finds beside a database file. When the file at a
library's path was replaced (a backup put back by hand, another library copied over
it, the file deleted and made again) while a program had the old one open, and that
program ended without removing its -wal (killed, or a PaperDesk before this check),
the log belongs to a file that is no longer there: replayed into the new one it
damages it for good ("database disk image is malformed").

So before this process's first connection to a library file (``connection.connect``),
``guard`` reads page 1 of the file and the page-1 images of the -wal beside it. It
reads them outside SQLite only while this process has no connection to either (so no
lock of its own can be dropped: design notes, section 9), and never the -shm. The log
is the file's own when

- page 1 of the file is, byte for byte, one of the log's committed page-1 images (a
  checkpoint copied the log that far into this file), or
- the log's first committed page-1 image comes one write after this file's page 1:
  one PaperDesk write more (``PRAGMA user_version``, which every PaperDesk write adds
  one to, ``dbfile.write``), the same count (a write by another program, statistics),
  or one schema change more (a backup copied in, as ``restore`` does).

Any other log is another file's: it and its -shm are moved into the backups folder
(``NAME-wal.set-aside-STAMP``, a name SQLite never pairs with a file) and one line
says so. A log without a committed page-1 image is left to SQLite, and so is any log
while a program still running has this very file open (its markers, ``sessions``):
that program writes and checkpoints it meanwhile. The file's page 1 is read again
after the log, and a file that changed meanwhile is left alone too.

The log of a file this process still holds (a library replaced under this program,
then opened again at its path) is set aside without being read.
"""

from __future__ import annotations

import contextlib
import os
import struct
from datetime import datetime
from pathlib import Path

from paperdesk.core.db import files, sessions
from paperdesk.core.model.errors import LibraryError

_WAL_MAGIC = (0x377F0682, 0x377F0683)
_WAL_HEADER, _FRAME_HEADER = 32, 24
_USER_VERSION, _SCHEMA_COOKIE = 60, 40  # offsets in the database header (page 1)
SET_ASIDE = "set-aside"


def _read(fd: int, offset: int, size: int) -> bytes:
    os.lseek(fd, offset, os.SEEK_SET)  # (no pread: Windows has none)
    chunks, left = [], size
    while left > 0:
        chunk = os.read(fd, left)
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _page_size(header: bytes) -> int:
    size = struct.unpack(">H", header[16:18])[0]
    return 65536 if size == 1 else size


def _first_page(path: Path) -> bytes | None:
    fd = files.open_regular(path)
    if fd is None:
        return None
    try:
        head = _read(fd, 0, 100)
        if len(head) < 100 or not head.startswith(files.SQLITE_MAGIC):
            return None
        return _read(fd, 0, _page_size(head))
    finally:
        os.close(fd)


def page_one_images(wal: Path) -> list[bytes] | None:
    """The committed page-1 images of the log at ``wal``, oldest first; None when it
    has no valid header. Frames are taken while they carry the header's salts (as
    SQLite does; their checksums are not summed here) up to the last commit frame."""
    fd = files.open_regular(wal)
    if fd is None:
        return None
    try:
        head = _read(fd, 0, _WAL_HEADER)
        if len(head) < _WAL_HEADER:
            return None
        magic, _version, size, _seq, salt1, salt2 = struct.unpack(">6I", head[:24])
        if magic not in _WAL_MAGIC or size < 512 or size & (size - 1):
            return None
        images: list[bytes] = []
        pending: list[bytes] = []
        offset = _WAL_HEADER
        while True:
            frame = _read(fd, offset, _FRAME_HEADER)
            if len(frame) < _FRAME_HEADER:
                break
            page, commit, s1, s2 = struct.unpack(">4I", frame[:16])
            if (s1, s2) != (salt1, salt2):
                break
            if page == 1:
                pending.append(_read(fd, offset + _FRAME_HEADER, size))
            if commit:
                images += pending
                pending = []
            offset += _FRAME_HEADER + size
        return images
    finally:
        os.close(fd)


def _field(page: bytes, offset: int) -> int:
    return struct.unpack(">I", page[offset:offset + 4])[0]


def belongs(page: bytes, images: list[bytes]) -> bool:
    """Whether a log whose committed page-1 images are ``images`` was written on the
    file whose page 1 is ``page`` (see the module's docstring)."""
    if not images or page in images:
        return True
    first = images[0]
    if len(first) != len(page):
        return False
    # (user_version wraps at 2**31, ``dbfile``; the schema cookie at 2**32)
    writes = (_field(first, _USER_VERSION) - _field(page, _USER_VERSION)) % 2**31
    schema = (_field(first, _SCHEMA_COOKIE) - _field(page, _SCHEMA_COOKIE)) % 2**32
    return writes in (0, 1) or schema == 1


def _own_log(wal: Path, library: Path) -> bool | None:
    """Whether the log at ``wal`` is ``library``'s: True, False, or None (left alone)."""
    page = _first_page(library)
    if page is None:
        return None
    images = page_one_images(wal)
    if images is None or _first_page(library) != page:
        return None
    return belongs(page, images)


def guard(path: Path) -> Path | None:
    """Before this process's first connection to the library file at ``path`` (called
    with ``files.registry`` held): set aside a -wal beside it written on another file;
    where it went, or None."""
    wal = Path(f"{os.path.realpath(path)}-wal")
    try:
        if os.stat(wal).st_size <= _WAL_HEADER:
            return None
    except OSError:
        return None
    ident = files.identity(path)
    if ident is None or files.connections(ident):
        return None
    if files.in_use(wal):  # another file's, held here: the path was replaced under us
        return set_aside(path, "the file this program has open under that name")
    if sessions.running_users(sessions.folder(path)):
        return None
    try:
        own = _own_log(wal, Path(os.path.realpath(path)))
    except OSError:
        return None
    if own is False:
        moved = set_aside(path, "another file that had this name")
        if moved is None and os.path.exists(wal):  # never replayed: refused instead
            raise LibraryError(f"{path}: the write-ahead log beside it ({wal}) belongs to "
                               "another file that had this name, and it cannot be moved "
                               "aside; move it away, then open the library again")
        return moved
    return None


def set_aside(path: Path, whose: str, expected: dict[str, object] | None = None) -> Path | None:
    """Move the -wal and -shm beside ``path`` into its backups folder (only those whose
    identity is the one in ``expected``, when given); say so in one line. The -wal's new
    name, or None when there was none to move."""
    real = Path(os.path.realpath(path))
    folder = real.parent / "backups"
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    moved: Path | None = None
    for suffix in ("-wal", "-shm"):
        side = Path(f"{real}{suffix}")
        if expected is not None and (expected.get(suffix) is None
                                     or files.identity(side) != expected[suffix]):
            continue
        dest, n = folder / f"{real.name}{suffix}.{SET_ASIDE}-{stamp}", 1
        while dest.exists():
            n += 1
            dest = folder / f"{real.name}{suffix}.{SET_ASIDE}-{stamp}-{n}"
        try:
            folder.mkdir(exist_ok=True)
            os.rename(side, dest)  # a rename: no descriptor opened or closed
        except FileNotFoundError:
            continue
        except OSError:
            with contextlib.suppress(OSError):  # no backups folder: beside the file
                dest = real.parent / dest.name
                os.rename(side, dest)
        if suffix == "-wal" and dest.exists():
            moved = dest
    if moved is not None and expected is None:
        import logging  # only when a log was set aside: an ordinary open need not load it

        logging.getLogger("paperdesk").warning(
            "%s: the write-ahead log beside it belongs to %s; set aside as %s, not "
            "replayed into it", path, whose, moved)
    return moved

"""A kept-in-sync file as it is on disk: read (bounded, never waiting), hashed,
locked, and a person's version kept beside it instead of lost.

- ``lock``: one lock a synced file, shared by every program that writes it (a
  ``.NAME.lock`` file beside it, ``filelock``): the check of the file's bytes and
  the rename that replaces them are one step.
- ``read``: only a regular file is read (a FIFO, a device, a socket, a link to
  one: refused before any read), opened without waiting, at most its size when
  opened and never more than ``MAX_READ``.
- ``keep_theirs``: a file that is not the bytes PaperDesk last wrote, about to be
  replaced, becomes ``NAME.conflict-YYYYMMDD-HHMMSS.EXT`` beside it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from paperdesk.core.db import files
from paperdesk.core.model.errors import LibraryError

MAX_READ = 1 << 30  # a larger file is not one PaperDesk wrote: never read whole
LOCK_WAIT = 120.0   # seconds to wait for another program writing the same file
_CHUNK = 1 << 20


class Busy(Exception):
    """Another program held the file's lock for ``LOCK_WAIT`` seconds."""


@dataclass
class OnDisk:
    """A file's bytes (None when larger than ``MAX_READ``) and their SHA-256."""
    data: bytearray | None
    sha256: str
    size: int


def read(path: Path) -> OnDisk | None:
    """The regular file at ``path`` (None: there is none); LibraryError for anything
    else (FIFO, device, socket, folder), found before a byte is read."""
    fd = files.open_regular(path)
    if fd is None:
        return None
    try:
        size = os.fstat(fd).st_size
        if size > MAX_READ:
            return OnDisk(None, f"larger than {MAX_READ} bytes", size)
        data = read_at_most(fd, size)
    finally:
        os.close(fd)
    return OnDisk(data, hashlib.sha256(data).hexdigest(), len(data))


def read_at_most(fd: int, size: int) -> bytearray:
    """At most ``size`` bytes of the open file ``fd``: fewer when another program
    shrank it while it was read (those bytes are not the ones written)."""
    data = bytearray(size)
    pos = 0
    with memoryview(data) as view, open(fd, "rb", buffering=0, closefd=False) as handle:
        while pos < size and (n := handle.readinto(view[pos:pos + _CHUNK])):
            pos += n
    del data[pos:]  # only once the view is released: a viewed buffer cannot shrink
    return data


def sha256(path: Path) -> str | None:
    """The hash of the file at ``path`` as it is now; None when there is none or it
    cannot be read (then it is taken for someone else's)."""
    with contextlib.suppress(OSError, LibraryError):
        found = read(path)
        return found.sha256 if found is not None else None
    return "unreadable"


@contextlib.contextmanager
def lock(path: Path, wait: float | None = None) -> Iterator[None]:
    """Held by every program while it checks and replaces ``path`` (waiting at most
    ``LOCK_WAIT`` seconds for another)."""
    import filelock

    wait = LOCK_WAIT if wait is None else wait
    guard = filelock.FileLock(str(path.with_name(f".{path.name}.lock")), timeout=wait)
    try:
        guard.acquire()
    except filelock.Timeout:
        raise Busy(f"another program has been writing {path.name} for {wait:.0f} s") \
            from None
    try:
        yield
    finally:
        guard.release()


def conflict_name(path: Path, when: datetime | None = None) -> Path:
    """``refs.conflict-20261126-223000.bib`` beside ``refs.bib``."""
    stamp = (when or datetime.now()).strftime("%Y%m%d-%H%M%S")
    return path.with_name(f"{path.stem}.conflict-{stamp}{path.suffix}")


def keep_theirs(found: Path, path: Path) -> Path:
    """Give the file at ``found`` (someone else's version of ``path``) a conflict name
    beside ``path``, never over another file; the name it now has."""
    base = conflict_name(path)
    for n in range(1, 10_000):
        dest = base if n == 1 else base.with_name(f"{base.stem}-{n}{base.suffix}")
        try:
            os.link(found, dest)  # fails if taken: nothing is ever replaced
        except FileExistsError:
            continue
        except OSError:  # a filesystem without hard links
            if dest.exists():
                continue
            os.rename(found, dest)
            return dest
        os.unlink(found)
        return dest
    raise OSError(f"no free conflict name beside {path}")

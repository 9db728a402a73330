"""Writing one kept-in-sync file: whole, atomically, only when its bytes change.

0. Everything below happens under the file's lock (``sync_disk.lock``), shared
   by every program syncing it, with the sync as the last writer recorded it.
   The destination must be a regular file that is no database (a FIFO, device,
   socket or library is refused before a byte is read or written).
1. What goes in is read (``Syncs.members``); the file there now is read too
   (bounded, ``sync_disk.read``). A file whose bytes (SHA-256) are not the ones
   PaperDesk last wrote was changed by someone else: it is left alone and the
   sync stops (state ``conflict``) until the user overwrites it or stops
   syncing; overwritten, that version is kept beside it as
   ``NAME.conflict-YYYYMMDD-HHMMSS.EXT``. A missing folder, a
   read-only file, a full disk: state ``failed`` with the reason, and the next
   change tries again. The library's papers are never touched by a failure.
2. The keys of the papers going in are frozen (``citekey.freeze``): they have
   left PaperDesk.
3. The text is made. When the file is the one PaperDesk wrote and the caller
   says which papers changed, the entries of the others are reused byte for
   byte from the file (``layout`` records each entry's paper and length), so a
   change to one paper of 100,000 costs one entry, not 100,000.
4. Equal bytes: nothing is written (LaTeX tools watching the file sleep on).
   Otherwise a temporary file in the same folder, fsync, and a rename over the
   file there, held by a hard link first: the replaced file is checked once more,
   so a version a person saved at the last moment (even written into the old
   file after the rename) is kept as a conflict file, never unlinked.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import time
from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from paperdesk import __version__
from paperdesk.core.bibtex import formats
from paperdesk.core.bibtex.citekey import freeze
from paperdesk.core.bibtex.export_file import assemble, layout
from paperdesk.core.bibtex.export_query import export_rows
from paperdesk.core.bibtex.export_report import ExportReport
from paperdesk.core.db import changes as ch
from paperdesk.core.db import files, sync_changes, syncs_table
from paperdesk.core.db.edits import now
from paperdesk.core.model.errors import PaperDeskError
from paperdesk.core.sync import sync_disk, sync_records
from paperdesk.core.sync.sync_states import CONFLICT, FAILED, OK, PENDING

if TYPE_CHECKING:
    from paperdesk.core.library import Library
    from paperdesk.core.sync.sync_records import Sync


@dataclass
class Outcome:
    sync_id: int
    path: str
    state: str
    message: str | None = None
    written: bool = False  # False: failed, stopped, or the bytes were already there
    entries: int = 0
    seconds: float = 0.0
    # .bib fields of the entries made now written with bare specials escaped
    report: ExportReport = field(default_factory=ExportReport)

    @property
    def repaired(self) -> int:
        return self.report.repaired
    kept: str | None = None  # someone else's version replaced, kept under this name
    # ``kept`` though nobody asked to overwrite: their edit landed during the write
    unasked: bool = False

    def text(self) -> str:
        name = self.path
        if self.state == FAILED:
            return f"{name}: sync failed: {self.message}"
        if self.state == CONFLICT:
            return f"{name}: sync stopped: {self.message}"
        fixed = (f"; {self.repaired} field{'s' * (self.repaired != 1)} of .bib entries with "
                 "bare # & _ ^ escaped (--as-written keeps them)") if self.repaired else ""
        said = (f"{name}: {'written' if self.written else 'up to date'} "
                f"({self.entries} entries{fixed})")
        if self.kept:
            when = " while it was written" if self.unasked else ""
            said += f"; the version someone else saved there{when} is kept as {self.kept}"
        return said


def layout_key(sync: Sync) -> str:
    """What the recorded layout is valid for: entries made by another version or
    in another style are made again."""
    return f"{__version__}/{sync.style}/{int(sync.ascii)}" + ("/as-written" if sync.as_written
                                                              else "")


class Text:
    """A file's new bytes as the pieces they are made of: hashed, compared and written
    piece by piece, never joined into one large object (a thread that holds Python
    for one long step makes the window's thread wait)."""

    def __init__(self, parts: list[bytes | memoryview]) -> None:
        self.parts = parts
        self.size = sum(len(p) for p in parts)

    def sha256(self) -> str:
        digest = hashlib.sha256()
        for part in self.parts:
            digest.update(part)
        return digest.hexdigest()

    def equals(self, old: bytes | bytearray | None) -> bool:
        if old is None or len(old) != self.size:
            return False
        view, pos = memoryview(old), 0
        for part in self.parts:
            if view[pos:pos + len(part)] != part:
                return False
            pos += len(part)
        return True

    def __bytes__(self) -> bytes:
        return b"".join(self.parts)


def write_sync(lib: Library, sync: Sync, *, overwrite: bool = False,
               changed: set[int] | None = None, take: bool = False,
               wait: float | None = None) -> Outcome:
    """Bring ``sync``'s file up to date; never raises for a file that cannot be written.

    ``changed``: papers changed since the last write (None: any may have); those the
    library recorded since the file was written (``sync_changes``), by any program, are
    made again too. ``wait``: seconds to wait for another program writing the file;
    with 0 a file another program is writing is left to it (state ``pending``, nothing
    recorded: the library still says what the file lacks).
    """
    start = time.perf_counter()
    path = Path(sync.path)
    out = Outcome(sync.id, sync.path, OK)
    try:
        if not path.parent.is_dir():
            raise _Failed(f"the folder {path.parent} does not exist")
        # Never a database, a FIFO, a device: refused before a byte is read or written.
        files.refuse_destination(path)
        with sync_disk.lock(path, wait):
            # What the last writer (any program) recorded, read under the lock.
            fresh = sync_records.read(lib.db, sync.id)
            if fresh is None:
                raise _Failed("it is no longer kept in sync")
            sync = fresh
            _own(lib, sync, take)
            _write_locked(lib, sync, path, out, overwrite, changed)
    except sync_disk.Busy as exc:
        out.state, out.message = (PENDING if wait == 0 else FAILED), str(exc)
    except _Failed as exc:
        out.state, out.message = FAILED, str(exc)
    except OSError as exc:
        out.state, out.message = FAILED, exc.strerror or str(exc)
    except PaperDeskError as exc:  # a saved search gone, a query that no longer parses
        out.state, out.message = FAILED, str(exc)
    if out.state == FAILED and (sync.state, sync.message, sync.layout is None) != (
            FAILED, out.message, True):
        # The changes this write was for are not in the file: the next write makes
        # every entry again, since the layout can no longer say which are stale.
        with contextlib.suppress(PaperDeskError):
            _record(lib, sync, FAILED, out.message, forget_layout=True)
    out.seconds = time.perf_counter() - start
    return out


def _own(lib: Library, sync: Sync, take: bool) -> None:
    """_Failed when ``sync`` was made on another library file than this one (a backup
    opened, a copy, the library moved) or before PaperDesk recorded which (and not
    taken at the upgrade: ``store``), unless ``take``: this library takes it over."""
    here = os.path.realpath(lib.path)
    if sync.library == here:
        return
    if take:
        with lib.write("Keep synced files from this library", [ch.SYNCS]):
            syncs_table.set_library(lib.db, sync.id, here)
        return
    made = (f"it was made on the library {sync.library}, not this one (a copy, a backup, "
            "or moved?)" if sync.library else "PaperDesk does not know which library keeps "
            "it (it was made before that was recorded)")
    raise _Failed(f"{made}: not written; if this library keeps it, `paperdesk sync now "
                  "--take FILE`")


def _write_locked(lib: Library, sync: Sync, path: Path, out: Outcome, overwrite: bool,
                  changed: set[int] | None) -> None:
    """``write_sync`` under the file's lock: the check of the bytes there and the
    rename that replaces them are one step for every program syncing the file."""
    # The generation first: what is read after it is at least as new (a change committed
    # meanwhile is written again by the next write, never taken for written).
    upto = sync_changes.generation(lib.db)
    if changed is not None:
        logged = sync_changes.changed_since(lib.db, sync.generation, upto)
        changed = None if logged is None else changed | logged
    members = sync_records.members(lib.db, sync)
    old = sync_disk.read(path)
    if old is not None and not path.stat().st_mode & 0o222:  # (root may write anyway)
        raise _Failed("the file is read-only")
    mine = (sync.written_sha256, sync.pending_sha256)
    # Ours: the very bytes PaperDesk last wrote (or was writing when stopped).
    ours = old is None or old.sha256 in mine
    # The layout describes the bytes of the last finished write only.
    reuse = old is not None and old.data is not None and old.sha256 == sync.written_sha256 \
        and changed is not None and sync.layout_key == layout_key(sync) and bool(sync.layout)
    if ours or overwrite:
        _freeze(lib, members)
    text, entry_layout = render(lib, sync, members, old.data if reuse and old else None,
                                sync.layout if reuse else None, changed, out.report)
    out.entries = len(entry_layout) // 2
    new_hash = text.sha256()
    if old is not None and text.equals(old.data):
        if not (ours or overwrite):
            _freeze(lib, members)
        if (sync.state, sync.written_sha256, sync.layout_key, sync.generation) != (
                OK, new_hash, layout_key(sync), upto):
            _record(lib, sync, OK, None, written=new_hash, entries=out.entries,
                    entry_layout=entry_layout, generation=upto)
    elif not (ours or overwrite):
        out.state = CONFLICT
        out.message = ("the file was changed by someone else since PaperDesk last "
                       "wrote it; overwrite it (their version is kept beside it), or "
                       "stop syncing it")
        if (sync.state, sync.message) != (CONFLICT, out.message):
            _record(lib, sync, CONFLICT, out.message)
    else:
        _record(lib, sync, sync.state, sync.message, pending=new_hash)
        kept = _replace(path, text, mine)
        out.written = True
        if kept is not None:
            out.kept, out.unasked = str(kept), not overwrite
        # Kept unasked, it is said by `sync list` too (until the conflict file goes).
        _record(lib, sync, OK, None, written=new_hash, entries=out.entries,
                entry_layout=entry_layout, generation=upto,
                kept=out.kept if out.unasked else None)


class _Failed(Exception):
    pass


def _freeze(lib: Library, members: list[int] | None) -> None:
    """Freeze the keys of ``members`` (None: every paper) not frozen yet as theirs."""
    loose = [r[0] for r in lib.db.execute(  # a key a merge carried leaves as theirs now
        "SELECT id FROM papers WHERE id NOT IN (SELECT paper_id FROM frozen_keys WHERE "
        "paper_id NOT IN (SELECT paper_id FROM carried_keys)) AND citekey IS NOT NULL "
        "AND deleted_at IS NULL")]
    if members is not None:
        wanted = set(members)
        loose = [i for i in loose if i in wanted]
    if loose:
        with lib.write("Freeze citation keys", [ch.SYNCS], loose):
            freeze(lib.db, loose)


def _entries(lib: Library, sync: Sync, ids: list[int] | None,
             report: ExportReport | None = None) -> Iterator[tuple[int, bytes]]:
    write = formats.get(sync.style).writer()
    for row in export_rows(lib, ids, False, lambda f, m: None, None):
        text = write(row.columns, row.tags, [], ascii=sync.ascii, as_written=sync.as_written,
                     report=report)
        yield row.paper_id, text.encode("utf-8")


def render(lib: Library, sync: Sync, members: list[int] | None,
           old: bytes | bytearray | None, old_layout: bytes | None,
           changed: set[int] | None,
           report: ExportReport | None = None) -> tuple[Text, array]:
    """The file's bytes and its layout (paper id, entry length, ...); ``report``
    counts what the entries made now repaired."""
    head, sep, _tail, _empty = (part.encode() for part in layout(sync.style))
    reused: dict[int, memoryview] = {}
    if old is not None and old_layout:  # the file before, cut where its entries lie
        flat = array("q")
        flat.frombytes(old_layout)
        view, pos = memoryview(old), len(head)
        for pid, length in zip(flat[0::2], flat[1::2], strict=True):
            reused[pid] = view[pos:pos + length]
            pos += length + len(sep)
        skip = changed or set()
        reused = {pid: text for pid, text in reused.items() if pid not in skip}
    made: list[tuple[int, bytes | memoryview]]
    if members is None and not reused:
        made = list(_entries(lib, sync, None, report))
    else:
        if members is None:
            members = [r[0] for r in lib.db.execute(
                "SELECT id FROM papers WHERE deleted_at IS NULL ORDER BY id")]
        fresh = dict(_entries(lib, sync, [pid for pid in members if pid not in reused],
                              report))
        made = [(pid, fresh.get(pid) or reused[pid]) for pid in members
                if pid in fresh or pid in reused]
    entry_layout = array("q")

    def texts() -> Iterator[bytes | memoryview]:
        for pid, text in made:
            entry_layout.extend((pid, len(text)))
            yield text

    parts: list[bytes | memoryview] = []
    assemble(parts.append, sync.style, texts(), binary=True)
    return Text([p for p in parts if len(p)]), entry_layout


def _replace(path: Path, data: Text, mine: tuple[str | None, ...]) -> Path | None:
    """Written whole (``files.atomic_write``: temp file in the same folder, fsync, then
    renamed over the file there, which is held first, fsync of the folder); the file it
    replaces keeps its mode, a new one follows the umask. The file replaced, when its
    bytes are not ones PaperDesk wrote (someone saved over it, even at the last
    moment), is kept beside it as a conflict file: its name is returned."""
    kept: list[Path] = []

    def replaced(old_at: Path) -> None:
        if sync_disk.sha256(old_at) not in mine:
            kept.append(sync_disk.keep_theirs(old_at, path))

    with files.atomic_write(path, kind="tmp", replaced=replaced) as temp, \
            open(temp, "wb") as handle:
        handle.writelines(data.parts)
    return kept[0] if kept else None


def _record(lib: Library, sync: Sync, state: str, message: str | None, *,
            written: str | None = None, pending: str | None = None, entries: int | None = None,
            entry_layout: array | None = None, forget_layout: bool = False,
            generation: int = 0, kept: str | None = None) -> None:
    with lib.write(f"Sync {Path(sync.path).name}", [ch.SYNCS]):
        if forget_layout:
            syncs_table.forget_layout(lib.db, sync.id)
        if pending is not None:
            syncs_table.set_pending(lib.db, sync.id, pending)
            return
        syncs_table.set_state(lib.db, sync.id, state, message)
        if written is not None:
            syncs_table.set_written(
                lib.db, sync.id, written, now(), entries, layout_key(sync),
                entry_layout.tobytes() if entry_layout is not None else None, generation)
            sync_changes.prune(lib.db)
        if kept is not None:
            syncs_table.set_kept(lib.db, sync.id, kept)

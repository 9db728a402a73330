"""``lib.share``: start, exchange, report and stop sharing the library through a folder.

One exchange (``now``) is one undoable edit of the library (``how`` is ``SHARED``):

1. the shared document as the library last matched it is loaded from the library (or
   is the one this program kept since its last exchange, ``kept``), with this
   computer's update files that no committed exchange read beneath it;
2. what the library changed since is written into it (``document.push``), and those
   changes into the folder as one update file, written whole;
3. every file in the folder not read yet is imported (the engine merges);
4. the library is made what the document now says (``apply.pull``), through the table
   writers, and the document is stored back beside it, in the same transaction.

Killed anywhere before the commit, the library and its stored document are as they
were; an update file already written holds changes the next exchange reads first and
then writes again where the library has changed since, so its older values never win.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import loro

from paperdesk.core.db import attachments_table, share_table, store
from paperdesk.core.db import changes as ch
from paperdesk.core.model.clock import now
from paperdesk.core.model.errors import NotFound, ShareError
from paperdesk.core.share import (
    apply,
    compaction,
    document,
    fields,
    folder,
    git_remote,
    kept,
    library_state,
    partial,
    pdf_files,
    records,
    unmerging,
)

if TYPE_CHECKING:
    from paperdesk.core.library import Library

# What an exchange writes of the papers; the record kinds it wrote are added (``records``).
KINDS = (ch.PAPERS, ch.PAPER_SET, ch.TAGS, ch.NOTES)
# Stored parts of the document before they are compacted into one snapshot.
MOST_PARTS = 32


@dataclass(frozen=True)
class Exchanged(ch.Result):
    sent: int  # registers, tags and notes written into the document here
    read: int  # update files imported
    added: int
    changed: int
    removed: int
    skipped: tuple[str, ...] = ()
    in_trash: int = 0
    conflicts: tuple[str, ...] = ()
    restored: tuple[int, ...] = ()  # papers taken out of merges (``unmerge``): ids here


@dataclass
class Status:
    where: str | None
    device: str | None = None
    person: str | None = None
    last_exchange: str | None = None
    devices: dict[str, str] = field(default_factory=dict)
    waiting: list[str] = field(default_factory=list)
    conflicted: list[str] = field(default_factory=list)
    in_trash: int = 0
    with_files: bool = False

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _inside(path: Path, folder: Path) -> bool:
    path, folder = Path(os.path.realpath(path)), Path(os.path.realpath(folder))
    return path == folder or folder in path.parents


def _export_since(doc: loro.LoroDoc, saved: loro.VersionVector) -> bytes:
    """What ``doc`` holds beyond ``saved``; all of it (a document never shared) as a
    compacted snapshot, which the engine imports at once and which is a fraction of
    the size of the same history as updates."""
    if saved == loro.VersionVector():
        return doc.export(loro.ExportMode.Snapshot())
    return doc.export(loro.ExportMode.Updates(saved))


def _store(db: Any, doc: loro.LoroDoc, parts: tuple[int, ...], saved: loro.VersionVector,
           update: bytes | None) -> None:
    """Keep the document in the library: as one snapshot when its parts (``parts``,
    their sizes) are many or what is added is large beside them (every exchange that
    loads it imports them first: a snapshot at once, updates op by op); else the new
    part (``update`` when it is all that changed, exported once). Each store is marked
    anew (``kept``)."""
    if doc.oplog_vv == saved:
        return
    share_table.put(db, "doc_mark", uuid.uuid4().hex)
    if len(parts) >= MOST_PARTS or not parts:
        whole = update if update and saved == loro.VersionVector() else None
        share_table.replace_doc(db, whole or doc.export(loro.ExportMode.Snapshot()))
        return
    part = update or doc.export(loro.ExportMode.Updates(saved))
    if len(part) * 4 > sum(parts):
        share_table.replace_doc(db, doc.export(loro.ExportMode.Snapshot()))
    else:
        share_table.append_doc(db, part)


def _marks(doc: loro.LoroDoc) -> Any:
    """The document's merge marks (few: a paper merged away names its kept paper)."""
    return doc.get_map(fields.MERGED).get_value()


def _pulled_states(db: Any, doc: loro.LoroDoc, sub: partial.Subset | None,
                   value: dict[str, Any], since: tuple[loro.VersionVector, ...],
                   local: library_state.State,
                   who: tuple[str, str | None]
                   ) -> tuple[library_state.State, library_state.State, bool]:
    """What the document now says and the library as it is, for ``apply.pull``: of the
    subset and what the import touched (and True); or the whole of both (the value
    read again where the import changed it)."""
    saved, pushed = since
    device, person = who
    if sub is not None:
        target = sub.target(pushed)
        if target is not None:
            return target, sub.local, True
        return document.state(doc, person), library_state.read(db, device), False
    return document.state_of(document.refreshed(doc, value, saved), person), local, False


class Share:
    def __init__(self, lib: Library) -> None:
        self.lib = lib
        self.files = pdf_files.Moved()  # the last exchange's PDF files
        self._record_kinds: set[str] = set()  # the record kinds the last exchange wrote
        self.kept = kept.Kept()  # the document between exchanges

    @property
    def where(self) -> str | None:
        return share_table.get(self.lib.db, "where")

    def start(self, where: str | os.PathLike[str], person: str | None = None, *,
              with_files: bool = False) -> ch.Changes:
        """Share the library through the folder (or git repository) ``where``, then
        exchange once; ``with_files``: the PDF files too (``pdf_files``)."""
        if git_remote.is_git(str(where)):
            return self._start_git(str(where), person, with_files)
        target = Path(where).expanduser().absolute()
        if not target.is_dir():
            raise ShareError(f"{target}: no such folder (make it, or point your sync tool's "
                             "folder here)")
        if _inside(self.lib.path, target):
            raise ShareError(f"{self.lib.path}: the library is inside the shared folder "
                             f"{target}; keep it outside (the folder holds only updates)")
        self._record(str(target), person, with_files=with_files)
        return self.now()

    def _start_git(self, url: str, person: str | None, with_files: bool) -> ch.Changes:
        if not url.startswith(("git@", "ssh://", "https://", "http://", "git://", "file://")):
            url = str(Path(url).expanduser().absolute())
        self._record(url, person, git=True, with_files=with_files)
        return self.now()

    def _record(self, where: str, person: str | None, *, git: bool = False,
                with_files: bool = False) -> None:
        current = self.where
        if current is not None and current != where:
            raise ShareError(f"this library is shared through {current} already "
                             "(paperdesk share --stop first)")
        with self.lib.write("Start sharing", [ch.SYNCS]):
            db = self.lib.db
            share_table.put(db, "where", where)
            share_table.put(db, "git", git)
            if share_table.get(db, "device") is None:
                share_table.put(db, "device", uuid.uuid4().hex[:12])
            share_table.put(db, "person", person)
            if with_files:
                share_table.put(db, "with_files", True)

    def with_files(self) -> None:
        """From now on the PDF files travel too (``pdf_files``)."""
        if self.where is None:
            raise ShareError("this library is not shared (paperdesk share FOLDER --with-files)")
        with self.lib.write("Share the files", [ch.SYNCS]):
            share_table.put(self.lib.db, "with_files", True)

    def unmerge(self, paper_id: int) -> ch.Changes:
        """Take apart the merges into paper ``paper_id`` that the shared document holds,
        made on any computer (``unmerging``): the papers merged into it come back here
        (the exchange's result names them) and, at their next exchange, everywhere."""
        if self.where is None:
            raise ShareError("this library is not shared: `paperdesk unmerge` lists the "
                             "merges made here")
        db = self.lib.db
        uid = self.lib.paper(paper_id, with_notes=False)["uid"]
        doc, _, known = self.kept.take(db)
        try:
            found = unmerging.merged_into(doc, uid)
        finally:
            self.kept.keep(doc, kept.mark_of(db), known)
        if not found:
            raise NotFound(f"no merge into paper {paper_id} to undo, here or on another "
                           "computer")
        with self.lib.write("Unmerge from the shared library", [ch.SYNCS]):
            unmerging.ask(db, found)
        return self.now()

    def merges(self) -> list[dict[str, Any]]:
        """The merges the shared document holds into papers of this library, made here
        or on another computer: {kept_id, merged: [{uid, title}]} by kept paper."""
        db = self.lib.db
        doc, _, known = self.kept.take(db)
        try:
            found = unmerging.merges(doc)
        finally:
            self.kept.keep(doc, kept.mark_of(db), known)
        ids = dict(db.execute("SELECT uid, id FROM papers WHERE uid IS NOT NULL"))
        return [{"kept_id": ids[k], "merged": merged} for k, merged in sorted(found.items())
                if k in ids]

    def stop(self) -> bool:
        """Stop sharing: the library keeps everything; the folder is left as it is."""
        if self.where is None:
            return False
        with self.lib.write("Stop sharing", [ch.SYNCS]):
            share_table.clear(self.lib.db)
        return True

    def status(self) -> Status:
        db = self.lib.db
        return Status(
            where=self.where, device=share_table.get(db, "device"),
            person=share_table.get(db, "person"),
            last_exchange=share_table.get(db, "last_exchange"),
            devices=share_table.get(db, "devices", {}),
            waiting=[*share_table.get(db, "waiting", []),
                     *share_table.get(db, "files_waiting", [])],
            conflicted=share_table.get(db, "conflicted", []),
            in_trash=share_table.get(db, "in_trash", 0),
            with_files=bool(share_table.get(db, "with_files")))

    def now(self) -> ch.Changes:
        """One exchange with the folder (see the module's notes)."""
        where = self.where
        if where is None:
            raise ShareError("this library is not shared (paperdesk share FOLDER)")
        git = bool(share_table.get(self.lib.db, "git"))
        if git:
            place = git_remote.clone_path(self.lib.path)
            git_remote.prepare(where, place, share_table.get(self.lib.db, "device"))
            git_remote.pull(place)
        else:
            place = Path(where)
        if not place.is_dir():
            raise ShareError(f"{place}: the shared folder is missing; nothing was exchanged")
        self._nested = self.lib.db.conn.in_transaction
        # A computer's first read of the folder brings every paper: an import's settings
        first = store.large_write(self.lib.db) if not share_table.get(self.lib.db, "read") \
            else contextlib.nullcontext()
        with first, self.lib.edit("Shared changes", KINDS, how=ch.SHARED) as e:
            e.result = self._exchange(place)
            e.paper_ids |= set(self._touched)
            e.kinds |= self._record_kinds
        self.kept.keep(*self._stored)  # committed (or the outer write's to commit)
        # What this computer read, said only once its exchange committed: a file it
        # wrote is listed only when the library holds it (``folder.read_own``), and no
        # other computer prunes a file on the word of an exchange that rolled back.
        # Not written (a folder gone, a full disk): the next exchange writes it.
        with contextlib.suppress(OSError):
            compaction.write_seen(*self._seen)
        self.files = pdf_files.Moved()
        if share_table.get(self.lib.db, "with_files"):
            self._move_files(place)
        if git and not git_remote.push(place):
            with self.lib.write("Share waits", [ch.SYNCS]):
                waiting = share_table.get(self.lib.db, "waiting", [])
                share_table.put(self.lib.db, "waiting", [
                    *waiting, f"{where}: not reached; this computer's changes are pushed "
                              "at the next exchange"])
        return e.changes

    def _move_files(self, place: Path) -> None:
        db = self.lib.db
        rows = attachments_table.every(db)
        # the papers' stable ids as the exchange left them (read only: no write here)
        stable = dict(db.execute("SELECT id, uid FROM papers WHERE uid IS NOT NULL AND "
                                 "id IN (SELECT paper_id FROM attachments)"))
        self.files = moved = pdf_files.exchange(self.lib.path, place, rows, stable)
        if moved.located:  # linked files fetched: each computer's own path, not shared
            papers = {r["paper_id"] for r in rows if r["id"] in moved.located}
            with self.lib.write("Shared PDFs fetched", [ch.ATTACHMENTS], papers):
                for aid, path in moved.located.items():
                    attachments_table.set_columns(db, aid, {"path": path})
        if moved.lines or share_table.get(db, "files_waiting"):
            with self.lib.write("Share waits", [ch.SYNCS]):
                share_table.put(db, "files_waiting", moved.lines)

    def _exchange(self, place: Path) -> Exchanged:
        db = self.lib.db
        self._record_kinds = set()
        device, person = share_table.get(db, "device"), share_table.get(db, "person")
        doc, parts, known = self.kept.take(db)
        loaded = doc.oplog_vv
        read: dict[str, str] = share_table.get(db, "read", {})
        if read and folder.read_own(place, doc, read, device,
                                    compaction.seen_by(place, device)).imported:
            known = None  # the records' base is the document's now
        saved = doc.oplog_vv
        sub = partial.Subset.open(db, doc, device, person) if parts else None
        value: dict[str, Any] = {}
        if sub is not None:  # the papers changed since the last exchange, and the queue
            base, local = sub.base, sub.local
        else:
            value = cast(dict[str, Any], doc.get_deep_value())
            base, local = document.state_of(value, person), library_state.read(db, device)
        merged = library_state.merged_away(db, base.papers.keys() - local.papers.keys(), local)
        marks = _marks(doc)
        sent = document.push(doc, base, local, person, merged)
        # the rows beside the papers' own; quiet: every write since named its papers
        sent_records, known = records.push(doc, db, known, sub is not None)
        unmarked = unmerging.take(db, doc)
        sent += sent_records + len(unmarked)
        counter = share_table.get(db, "counter", 0)
        update = b""
        if sent:
            counter += 1
            update = _export_since(doc, saved)
            name, digest = folder.write_update(place, device, counter, update)
            read[name] = digest  # ours: held already
        pushed = doc.oplog_vv
        got = folder.read_new(place, doc, read)
        got_vv = doc.oplog_vv
        # Nothing came in: the document says what the library says (a first share),
        # unless a merge mark written here moved what the marks fold in (an unmerge
        # here of a paper another computer's merge holds: its notes come back to it),
        # or the library holds rows where the marks do not say (``records.push``).
        pulled, some = apply.Pulled(), False
        if got.imported or got.waiting or _marks(doc) != marks or known.astray:
            target, now_, some = _pulled_states(db, doc, sub, value, (saved, pushed), local,
                                                (device, person))
            pulled = apply.pull(db, target, now_)
            if some:  # no paper read holds a shared key: the last full read's still hold
                pulled.conflicts = dict(share_table.get(db, "conflicts", {}))
            touched, self._record_kinds, known = records.pull(
                db, doc, now(), pulled.papers - {*pulled.removed}, known,
                document.roots_if_few(doc, pushed),
                bool(pulled.added or pulled.removed or pulled.noted), pulled.noted)
            pulled.changed |= touched - {*pulled.added, *pulled.removed}
        snap = folder.maybe_snapshot(place, doc, device, counter + 1, read)
        if snap:
            counter += 1
        # what changed since the document was loaded, when its bytes are in hand: this
        # computer's update alone, or the one whole document a new computer read
        if doc.oplog_vv == pushed and loaded == saved and update:
            known_bytes: bytes | None = update
        else:
            known_bytes = got.whole if doc.oplog_vv == got_vv else None
        _store(db, doc, parts, loaded, known_bytes)
        stamp = now()
        compaction.prune(place, device, read, stamp)
        self._seen = (place, device, dict(read), stamp)  # written once committed
        # where the next one reads on
        partial.recorded(db, pulled.papers, self._nested, self._record_kinds)
        _record_exchange(db, device, got, pulled, some, counter, read, stamp)
        self._touched = pulled.papers
        self._stored = (doc, kept.mark_of(db), known)
        return Exchanged(sent, len(got.imported), len(pulled.added), len(pulled.changed),
                         len(pulled.removed), tuple(got.skipped), len(pulled.in_trash),
                         tuple(pulled.conflicts), unmerging.ids_of(db, unmarked))


def _record_exchange(db: Any, device: str, got: folder.Read, pulled: apply.Pulled,
                     partly: bool, counter: int, read: dict[str, str], stamp: str) -> None:
    """What the exchange leaves in the library's share table: the files read, the
    computers heard from, what waits, and (after a read of the whole document, not
    ``partly``) the citation keys two papers hold."""
    devices = share_table.get(db, "devices", {})
    for other in got.devices:
        devices[other] = stamp
    devices[device] = stamp
    share_table.put(db, "counter", counter)
    share_table.put(db, "read", read)
    share_table.put(db, "devices", devices)
    share_table.put(db, "last_exchange", stamp)
    share_table.put(db, "waiting", [*got.skipped, *(f"{n}: waits for the updates it "
                                                    "follows" for n in got.waiting)])
    if (got.imported or got.waiting) and not partly:  # else the last one's still hold
        share_table.put(db, "conflicts", pulled.conflicts)
        share_table.put(db, "conflicted", [
            f"citation key {key!r} left PaperDesk for two papers; both keep it "
            f"(paper {uid} and the one that held it first; a document may cite "
            "either): an export of both holds the key twice"
            for uid, key in pulled.conflicts.items()])
    if got.imported or got.waiting:
        share_table.put(db, "in_trash", len(pulled.in_trash))

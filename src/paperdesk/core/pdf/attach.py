"""A paper's PDFs: ``lib.pdf``. Attach one (a copy kept in ``NAME.files/``, or the
user's own file linked), to a paper or to the paper it names (``pdf_paper``), list
them, remove one, open one in the system's viewer, point a linked file that went
missing at where it is now, and sweep the copies no attachment names.

Every PDF is read first, in the PDF sandbox (``pdf_facts``): a corrupt, encrypted,
empty or hostile file, a file named .pdf that is not one, is refused with one line
before anything is written. The same file (its SHA-256) on the same paper is one
attachment. Attaching, removing and locating are undoable edits (``attachments_table``
images them); the copy is written inside the edit, under the library's write lock, so
a sweep (which holds it too) never sees a copy without its row.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from paperdesk.core.db import attachments_table
from paperdesk.core.db import changes as ch
from paperdesk.core.model.clock import now
from paperdesk.core.model.errors import NotFound, PdfError
from paperdesk.core.pdf import pdf_facts, pdf_paper, store

if TYPE_CHECKING:
    from paperdesk.core.hub.add import AddResult
    from paperdesk.core.hub.hub import Hub
    from paperdesk.core.library import Library

ENV_OPENER = "PAPERDESK_PDF_OPENER"  # the command that opens a PDF (the file is appended)
MAX_PAGES = 50_000  # a PDF claiming more pages is refused
OK, MISSING = "ok", "missing"


@dataclass(frozen=True)
class Attached(ch.Result):
    """What became of one attach: the attachment (``already``: the paper had this very
    file), its paper and whether the attach made that paper (``new_paper``)."""

    attachment_id: int
    paper_id: int
    name: str
    kind: str
    path: str
    already: bool = False
    new_paper: bool = False
    pages: int | None = None


@dataclass(frozen=True)
class Removed(ch.Result):
    attachment_id: int
    paper_id: int
    name: str


def paper_uid(lib: Library, pid: int) -> str:
    """The paper's stable id (``papers.uid``, migration 0027), which names its folder of
    stored files: a new title or key never renames it."""
    row = lib.db.execute("SELECT uid FROM papers WHERE id = ?", [pid]).fetchone()
    if row is None or not row[0]:
        raise NotFound(f"no paper with id {pid}")
    return str(row[0])


class Pdfs:
    def __init__(self, lib: Library) -> None:
        self.lib = lib
        self._sandbox: Any = None

    # -- reading PDFs --------------------------------------------------------------------

    def sandbox(self) -> Any:
        """The sandbox this library's attaches read PDFs in (started when first needed)."""
        if self._sandbox is None:
            from paperdesk.core.pdf.sandbox import PdfSandbox

            self._sandbox = PdfSandbox(name="paperdesk-pdf-attach")
        return self._sandbox

    def close(self) -> None:
        if self._sandbox is not None:
            self._sandbox.close()
            self._sandbox = None

    def facts(self, path: str | os.PathLike[str]) -> pdf_facts.PdfFacts:
        """Page count, metadata, first page and identifiers of the PDF at ``path``; a
        PdfError (one line) for a file that is none, or one too hostile to read."""
        path = Path(path).expanduser().absolute()
        store.check_source(path)
        try:
            facts = pdf_facts.read_facts(self.sandbox(), path)
        except PdfError as exc:
            raise PdfError(f"{exc}; nothing was attached") from None
        if facts.pages < 1:
            raise PdfError(f"{store.shown(path)}: a PDF without pages; nothing was attached")
        if facts.pages > MAX_PAGES:
            raise PdfError(f"{store.shown(path)}: claims {facts.pages:,} pages (at most "
                           f"{MAX_PAGES:,} are taken); nothing was attached")
        return facts

    # -- attaching -----------------------------------------------------------------------

    def attach(self, paper_id: int | None, path: str | os.PathLike[str], *,
               link: bool = False, source: str = "attached", source_url: str | None = None,
               arxiv_version: int | None = None, hub: Hub | None = None) -> ch.Changes:
        """Attach the PDF at ``path`` to paper ``paper_id`` (None: the paper it names, or
        a new one); one undoable edit (with the new paper's, when one was made) whose
        result is ``Attached``. ``link`` keeps the user's path instead of a copy."""
        path = Path(path).expanduser().absolute()
        if paper_id is not None:
            paper_id = self.lib.require([paper_id])[0]
        store.check_source(path)
        sha256, size = store.digest(path)
        if paper_id is not None and (same := self._same_file(paper_id, sha256)):
            return self._already(same)
        facts = self.facts(path)
        made: ch.Changes | None = None
        if paper_id is None:
            anywhere = attachments_table.by_sha256(self.lib.db, sha256)
            paper_id = anywhere[0]["paper_id"] if anywhere else pdf_paper.known_paper(
                self.lib, facts)
            if paper_id is not None and (same := self._same_file(paper_id, sha256)):
                return self._already(same)
        if paper_id is None:
            made = pdf_paper.added_paper(self.lib, facts, hub)
            paper_id = _paper_of(made)
        try:
            attached = self._write(paper_id, path, sha256, size, facts, link=link,
                                   source=source, source_url=source_url,
                                   arxiv_version=arxiv_version, new_paper=made is not None)
        except BaseException:
            if made is not None and made.undo is not None:  # the library as it was
                self.lib.undo(made.undo)
            raise
        if made is None:
            return attached
        return ch.combine(attached.label, [made, attached], attached.result)

    def _same_file(self, paper_id: int, sha256: str) -> dict[str, Any] | None:
        return next((r for r in attachments_table.of_papers(self.lib.db, [paper_id])
                     if r["sha256"] == sha256), None)

    def _already(self, row: dict[str, Any]) -> ch.Changes:
        return ch.Changes(f"Attach {row['name']}", frozenset(), frozenset(), None,
                          Attached(row["id"], row["paper_id"], row["name"], row["kind"],
                                   row["path"], already=True, pages=row["pages"]))

    def _write(self, pid: int, path: Path, sha256: str, size: int,
               facts: pdf_facts.PdfFacts, *, link: bool, source: str,
               source_url: str | None, arxiv_version: int | None,
               new_paper: bool) -> ch.Changes:
        title = self.lib.db.execute("SELECT title FROM papers WHERE id = ?", [pid]).fetchone()[0]
        name = store.readable_name(title, path.name) if not link else path.name
        label = f"Attach {name}"
        with self.lib.edit(label, [ch.ATTACHMENTS], [pid]) as e:
            # Under the write lock: another program may have attached it meanwhile.
            same = self._same_file(pid, sha256)
            if same is not None:
                e.result = self._already(same).result
            else:
                e.result = self._insert(pid, path, sha256, size, facts, name, link=link,
                                        source=source, source_url=source_url,
                                        arxiv_version=arxiv_version, new_paper=new_paper)
        return e.changes

    def _insert(self, pid: int, path: Path, sha256: str, size: int,
                facts: pdf_facts.PdfFacts, name: str, *, link: bool, source: str,
                source_url: str | None, arxiv_version: int | None,
                new_paper: bool) -> Attached:
        """The copy (unless ``link``) and the row, inside the attach's edit."""
        written: str | None = None
        if link:
            kind, where = store.LINKED, str(path)
        else:
            kind, where, fresh = store.STORED, *store.store_copy(
                self.lib.path, paper_uid(self.lib, pid), path, name, sha256)
            written = where if fresh else None
        try:
            aid = attachments_table.insert(self.lib.db, {
                "paper_id": pid, "kind": kind, "path": where, "name": name,
                "sha256": sha256, "size": size, "pages": facts.pages,
                "arxiv_version": arxiv_version, "source": source,
                "source_url": source_url, "added_at": now()})
        except BaseException:
            if written is not None:  # a copy no row will name
                store.discard(self.lib.path, written)
            raise
        return Attached(aid, pid, name, kind, where, new_paper=new_paper, pages=facts.pages)

    # -- reading the attachments ---------------------------------------------------------

    def _shown(self, row: dict[str, Any]) -> dict[str, Any]:
        file = store.file_path(self.lib.path, row)
        return {**row, "file": str(file), "state": OK if file.is_file() else MISSING}

    def get(self, attachment_id: int) -> dict[str, Any]:
        """One attachment, with ``file`` (its absolute path) and ``state`` (ok, missing)."""
        row = attachments_table.get(self.lib.db, int(attachment_id))
        if row is None:
            raise NotFound(f"no attachment with id {attachment_id}")
        return self._shown(row)

    def of_paper(self, paper_id: int) -> list[dict[str, Any]]:
        return [self._shown(r) for r in attachments_table.of_papers(self.lib.db, [paper_id])]

    def listing(self, query: str = "") -> list[dict[str, Any]]:
        """The attachments of the papers ``query`` finds (every one's when empty), each
        with its paper's citation key and title."""
        rows = (attachments_table.of_papers(self.lib.db, self.lib.search(query).ids)
                if query else attachments_table.every(self.lib.db))
        papers = {p["id"]: p for p in self.lib.papers(sorted({r["paper_id"] for r in rows}))}
        return [{**self._shown(r), "citekey": papers.get(r["paper_id"], {}).get("citekey"),
                 "title": papers.get(r["paper_id"], {}).get("title")} for r in rows]

    def file(self, attachment_id: int) -> Path:
        """The attachment's PDF; a PdfError when it is missing (Locate points it anew)."""
        row = self.get(attachment_id)
        if row["state"] == MISSING:
            raise PdfError(f"{row['name']} is missing (it was at {row['file']}); "
                           f"point it at where it is now: paperdesk pdf locate {row['id']} FILE")
        return Path(row["file"])

    # -- removing, locating, opening -----------------------------------------------------

    def remove(self, attachment_id: int) -> ch.Changes:
        """Take an attachment off its paper (its highlights with it); undoable. A stored
        copy stays in the files folder until the trash is emptied."""
        row = self.get(attachment_id)
        with self.lib.edit(f"Remove {row['name']}", [ch.ATTACHMENTS, ch.HIGHLIGHTS],
                           [row["paper_id"]]) as e:
            attachments_table.delete(self.lib.db, row["id"])
            e.result = Removed(row["id"], row["paper_id"], row["name"])
        return e.changes

    def locate(self, attachment_id: int, path: str | os.PathLike[str]) -> ch.Changes:
        """Point an attachment at the PDF now at ``path`` (a linked file moved, a stored
        copy lost); undoable. The file is read like any attached one."""
        row = self.get(attachment_id)
        path = Path(path).expanduser().absolute()
        store.check_source(path)
        sha256, size = store.digest(path)
        facts = self.facts(path)
        twin = self._same_file(row["paper_id"], sha256)
        if twin is not None and twin["id"] != row["id"]:
            raise PdfError(f"{path.name} is attached to this paper already (attachment "
                           f"{twin['id']}); nothing was changed")
        with self.lib.edit(f"Locate {row['name']}", [ch.ATTACHMENTS], [row["paper_id"]]) as e:
            where = str(path)
            if row["kind"] == store.STORED:
                where, _ = store.store_copy(self.lib.path, paper_uid(self.lib, row["paper_id"]),
                                            path, row["name"], sha256)
            attachments_table.set_columns(self.lib.db, row["id"], {
                "path": where, "sha256": sha256, "size": size, "pages": facts.pages})
            e.result = Attached(row["id"], row["paper_id"], row["name"], row["kind"], where,
                                pages=facts.pages)
        return e.changes

    def open(self, attachment_id: int) -> subprocess.Popen[bytes] | None:
        """Open the attachment's PDF in the system's viewer (``$PAPERDESK_PDF_OPENER``,
        the file appended, when set); the viewer's process (None where the system
        opens it itself)."""
        file = self.file(attachment_id)
        command = os.environ.get(ENV_OPENER)
        if not command and sys.platform == "win32":
            os.startfile(file)  # type: ignore[attr-defined]
            return None
        argv = shlex.split(command) if command else [
            "open" if sys.platform == "darwin" else "xdg-open"]
        try:
            return subprocess.Popen([*argv, str(file)], stdin=subprocess.DEVNULL,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                    start_new_session=True)
        except OSError as exc:
            raise PdfError(f"cannot open {file.name} with {argv[0]} "
                           f"({exc.strerror or exc})") from None

    def back_up_files(self, backup: str | os.PathLike[str]) -> Any:
        """Copy the files folder beside the backup at ``backup`` (``backup --with-files``);
        what it holds (``files_backup.Held``)."""
        from paperdesk.core.pdf.files_backup import back_up_files

        with self.lib.write("Back up the PDFs"):  # no sweep or attach meanwhile
            return back_up_files(self.lib.path, Path(backup))

    def sweep(self) -> list[Path]:
        """Remove the stored copies that no attachment names, nor the undo of any merge
        (the trash's emptying does); what went."""
        with self.lib.write("Sweep the files folder"):
            top = attachments_table.files_folder(self.lib.path)
            rows = attachments_table.every(self.lib.db)
            kept = {r["path"] for r in rows if r["kind"] == store.STORED}
            # a linked file another computer shared lives here too (``share.pdf_files``)
            kept |= {Path(r["path"]).relative_to(top).as_posix() for r in rows
                     if r["kind"] != store.STORED and r["path"]
                     and Path(r["path"]).is_relative_to(top)}
            kept |= attachments_table.paths_in_merges(self.lib.db)
            return store.sweep(self.lib.path, kept)


def _paper_of(changes: ch.Changes) -> int:
    result = changes.result
    if isinstance(result, pdf_paper.MadePaper):
        return result.paper_id
    item = cast("AddResult", result).inputs[0]
    if item.paper_id is None:
        raise PdfError(f"{item.input}: {item.why or 'cannot be added'}; nothing was attached")
    return int(item.paper_id)

"""What the built-in reader reads and writes: ``lib.reading``.

The reader opens an attachment (``attachment``: its row and the file it names;
``open``: its pages through a sandbox of the reader's own, ``ReaderPages``),
keeps the reading position per PDF (``keep_page``: ``attachments.last_page``, a
plain write outside the undo history, heard by nobody: a page turned is not an
edit), and moves a paper from to-read to reading when one of its PDFs is opened
(``began``: an undoable status change like any other).
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperdesk.core.db import attachments_table
from paperdesk.core.db import changes as ch
from paperdesk.core.model.errors import NotFound, PdfError

if TYPE_CHECKING:
    from paperdesk.core.library import Library
    from paperdesk.core.pdf.reader_pages import ReaderPages


class Reading:
    def __init__(self, lib: Library) -> None:
        self.lib = lib

    def attachment(self, attachment_id: int) -> dict[str, Any]:
        """The attachment's row, with ``file`` (the absolute path of its PDF) and
        ``missing`` (whether that file is not there)."""
        row = attachments_table.get(self.lib.db, attachment_id)
        if row is None:
            raise NotFound(f"no attachment with id {attachment_id}")
        row["file"] = self.file_of(row)
        row["missing"] = not row["file"].is_file()
        return row

    def file_of(self, row: dict[str, Any]) -> Path:
        """Where an attachment's PDF is: beside the library (stored) or the user's path."""
        from paperdesk.core.pdf import store

        return store.file_path(self.lib.path, row)

    def attachments(self, paper_id: int) -> list[dict[str, Any]]:
        """A paper's attachments, oldest first, each with ``file`` and ``missing``."""
        return [self.attachment(r["id"])
                for r in attachments_table.of_papers(self.lib.db, [paper_id])]

    def open(self, attachment_id: int, sandbox: Any = None) -> ReaderPages:
        """The attachment's pages, ready to render and read (through ``sandbox``, else a
        sandbox process of their own, closed with them). A missing or unreadable file
        is a ``PdfError``."""
        found = self.attachment(attachment_id)
        if found["missing"]:
            raise PdfError(f"{found['name']} is missing (it was at {found['file']})")
        return self.pages(found["file"], sandbox)

    @staticmethod
    def pages(path: Path, sandbox: Any = None, first_scale: float | None = None) -> ReaderPages:
        """The pages of the PDF at ``path`` (no library read: any thread may call it);
        ``first_scale``: the first page rendered at that scale on the way."""
        from paperdesk.core.pdf.reader_pages import ReaderPages

        return ReaderPages(path, sandbox, first_scale)

    def any_pdf(self) -> bool:
        """Whether the library has a PDF at all (one row read, on an index)."""
        return self.lib.db.execute("SELECT 1 FROM attachments LIMIT 1").fetchone() is not None

    @staticmethod
    def warm(sandbox: Any) -> None:
        """Start ``sandbox``'s process ahead of the first PDF, with PDFium loaded, so that
        opening one starts no process (a few hundred milliseconds saved): it is asked
        about a file that is not there, which loads the engine and fails at once."""
        from paperdesk.core.pdf.reader_pages import NO_FILE

        with contextlib.suppress(PdfError):  # the answer expected: the process is up
            sandbox.info(NO_FILE, deadline=30.0)

    @staticmethod
    def sandbox() -> Any:
        """A sandbox process for readers to share (``PdfSandbox``; ``close`` stops it)."""
        from paperdesk.core.pdf.reader_pages import new_sandbox

        return new_sandbox()

    def began(self, attachment_id: int) -> ch.Changes:
        """Opening a to-read paper's PDF makes it reading (undoable); else nothing."""
        pid = int(self.attachment(attachment_id)["paper_id"])
        if self.lib.paper(pid, with_notes=False)["status"] != "to-read":
            return ch.NOTHING
        return self.lib.curation.set_status([pid], "reading")

    def keep_page(self, attachment_id: int, page: int) -> None:
        """Remember the page (0-based) the reader shows, for the next time."""
        row = attachments_table.get(self.lib.db, attachment_id)
        if row is None or row["last_page"] == page:
            return
        with self.lib.write("Reading position") as w:
            attachments_table.set_last_page(self.lib.db, attachment_id, int(page))
            w.changes = ch.Changes("Reading position", frozenset())

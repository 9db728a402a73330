"""``lib.fulltext``: the text of a library's PDFs, indexed and searched.

The text lives in ``NAME.fulltext.sqlite`` beside the library (``core/db/fulltext_db``:
derived, rebuildable, never backed up). ``index`` brings it up to the library's
attachments (``core/pdf/indexer``); the query language finds papers by it
(``pdf:word``, ``pdf:"a phrase"``; ``has:pdf`` needs no text); ``hits`` says on which
pages of which attachment a query's ``pdf:`` words are, with a snippet of each.
Searches read what is indexed so far: a PDF not indexed yet is not found by its words.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperdesk.core.db import attachments_table, fulltext_db
from paperdesk.core.db.fulltext_db import Fulltext
from paperdesk.core.model.errors import QueryError
from paperdesk.core.model.jobs import CancelFlag, Progress, no_progress
from paperdesk.core.pdf import indexer
from paperdesk.core.pdf.indexer import IndexReport
from paperdesk.core.search.query import pdf_fields, pdf_words

if TYPE_CHECKING:
    from paperdesk.core.library import Library
    from paperdesk.core.pdf.sandbox import PdfSandbox


class PdfText:
    """The full text of the PDFs of one library."""

    def __init__(self, lib: Library) -> None:
        self.lib = lib

    @property
    def path(self) -> Path:
        """The full-text file: ``NAME.fulltext.sqlite`` beside ``NAME.sqlite``."""
        return fulltext_db.path_of(self.lib.path)

    def attachments(self) -> list[dict[str, Any]]:
        """The library's attachments, as the indexer reads them."""
        return attachments_table.every(self.lib.db)

    def index(self, *, rebuild: bool = False, progress: Progress = no_progress,
              cancel: CancelFlag | None = None,
              sandbox: PdfSandbox | None = None, normalise_here: bool = True,
              background: bool = False) -> IndexReport:
        """Extract the text of every attachment not indexed yet (``rebuild``: of every
        one, the file emptied first). Resumable: see ``core/pdf/indexer`` (and there
        ``normalise_here`` and ``background``: False and True in a window's process)."""
        return indexer.index(self.lib.path, self.attachments(), rebuild=rebuild,
                             progress=progress, cancel=cancel, sandbox=sandbox,
                             normalise_here=normalise_here, background=background)

    def status(self) -> dict[str, int]:
        """Attachments in the library, indexed as this extractor reads them, waiting,
        unreadable; pages indexed."""
        attachments = self.attachments()
        if not self.path.exists():
            return {"attachments": len(attachments), "indexed": 0,
                    "waiting": len(attachments), "failed": 0, "pages": 0}
        with Fulltext.open(self.lib.path) as ft:
            waiting = len(indexer.pending(attachments, ft.states()))
            counts = ft.counts()
        return {"attachments": len(attachments), "indexed": len(attachments) - waiting,
                "waiting": waiting, "failed": counts["failed"], "pages": counts["pages"]}

    def asks(self, query: str) -> bool:
        """Whether ``query`` asks for words of the PDFs (``pdf:``)."""
        return _fts(query) is not None

    def words(self, query: str) -> list[str]:
        """The words and phrases of the ``pdf:`` fields of ``query`` (what the reader
        marks on a hit's page); none for a query that cannot be read."""
        try:
            return list(dict.fromkeys(f.value for f in pdf_fields(query)))
        except QueryError:
            return []

    def hits(self, paper_ids: Sequence[int], query: str,
             per_attachment: int = 3) -> dict[int, list[dict[str, Any]]]:
        """{paper id: its pages matching the ``pdf:`` words of ``query``}: for each,
        ``attachment_id``, ``name`` (the file's), ``page`` (0-based) and ``snippet``
        (the words in [brackets]); papers without such a page are left out."""
        fts = _fts(query)
        if fts is None or not paper_ids:
            return {}
        rows = attachments_table.of_papers(self.lib.db, list(paper_ids))
        by_id = {r["id"]: r for r in rows}
        out: dict[int, list[dict[str, Any]]] = {}
        for hit in fulltext_db.hits(self.path, fts, sorted(by_id), per_attachment):
            row = by_id[hit["attachment_id"]]
            out.setdefault(row["paper_id"], []).append({**hit, "name": row["name"]})
        return out


def _fts(query: str) -> str | None:
    """The FTS5 expression of the query's ``pdf:`` words; None for none, or for a query
    that cannot be read (its search says why)."""
    try:
        return pdf_words(query)
    except QueryError:
        return None

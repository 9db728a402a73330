"""The paper a PDF names, or a new one made from it (``paperdesk pdf attach FILE``).

A PDF dropped without a paper is matched by the identifiers it names
(``pdf_facts``): a paper of the library with one of those arXiv ids or DOIs is its
paper. Otherwise the first identifier is added the way ``paperdesk add`` adds it
(arXiv's API, the Hub, Crossref); when no service could describe it (offline), the
paper keeps the title and authors the PDF gives, marked as the PDF's (``pdf``), and is
completed like any incomplete paper when it is added again. A PDF that names no
identifier still becomes a paper: its title (metadata, else its first page's first
line) and authors, marked as the PDF's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from paperdesk.core.bibtex.citekey import KeyAllocator, refresh
from paperdesk.core.db import changes as ch
from paperdesk.core.db import ids as id_tops
from paperdesk.core.db import papers_table
from paperdesk.core.hub.add import INCOMPLETE, AddResult
from paperdesk.core.model import links
from paperdesk.core.model.clock import now
from paperdesk.core.model.sources import marked, parse
from paperdesk.core.model.text import title_key

if TYPE_CHECKING:
    from paperdesk.core.hub.hub import Hub
    from paperdesk.core.library import Library
    from paperdesk.core.pdf.pdf_facts import PdfFacts

PDF_SOURCE = "pdf"


def known_paper(lib: Library, facts: PdfFacts) -> int | None:
    """The paper of the library (out of the trash first) one of the PDF's identifiers
    names, if any."""
    for link in facts.ids:
        if link.kind == links.ARXIV:
            where, args = ("arxiv_id = ? OR (arxiv_id LIKE ? AND arxiv_id GLOB ?)",
                           [link.value, link.value + "v%", link.value + "v[0-9]*"])
        else:
            where, args = "lower(doi) = ?", [link.value]
        row = lib.db.execute(f"SELECT id FROM papers WHERE {where} "
                             "ORDER BY deleted_at IS NOT NULL, id LIMIT 1", args).fetchone()
        if row is not None:
            return int(row[0])
    return None


def added_paper(lib: Library, facts: PdfFacts, hub: Hub | None) -> ch.Changes:
    """A new paper for the PDF: added by its first identifier as ``add`` would, or made
    from what the PDF says; ``Changes.result.paper_id`` names it (its ``inputs`` too,
    for one added by identifier)."""
    if facts.ids:
        changes = lib.add([str(facts.ids[0])], hub=hub)
        item = cast(AddResult, changes.result).inputs[0]
        if item.status == INCOMPLETE and facts.title and item.paper_id is not None:
            changes = ch.combine(changes.label, [changes, _titled(lib, item.paper_id, facts)],
                                 changes.result)
        return changes
    return _made(lib, facts)


def _titled(lib: Library, pid: int, facts: PdfFacts) -> ch.Changes:
    """An added paper no service described takes the PDF's title and authors instead of
    its identifier's (still incomplete: its title's source is the PDF)."""
    assert facts.title is not None
    row = lib.db.execute("SELECT sources FROM papers WHERE id = ?", [pid]).fetchone()
    stamp = now()
    values: dict[str, Any] = {"title": facts.title, "title_key": title_key(facts.title)}
    names = ["title"]
    if facts.authors:
        values.update(authors=json.dumps(facts.authors, ensure_ascii=False),
                      author_count=len(facts.authors))
        names.append("authors")
    values["sources"] = marked(parse(row[0]), names, PDF_SOURCE, stamp)
    with lib.edit("Title from the PDF", [ch.PAPERS], [pid]) as e:
        papers_table.set_columns(lib.db, pid, values)
        refresh(lib.db, [pid])  # a provisional key follows the new title
    return e.changes


def _made(lib: Library, facts: PdfFacts) -> ch.Changes:
    title = facts.title or "Untitled PDF"
    authors = facts.authors
    with lib.edit("Add a paper from a PDF", [ch.PAPER_SET, ch.PAPERS]) as e:
        pid = id_tops.first_free(lib.db, "papers")
        e.paper_ids.add(pid)
        stamp = now()
        citekey = KeyAllocator(lib.db, expected=1).take(
            {"title": title, "authors": authors, "year": None})
        sources = marked(None, ["title", *(["authors"] if authors else [])], PDF_SOURCE, stamp)
        papers_table.insert_added(lib.db, [[
            pid, title, "", title_key(title), json.dumps(authors, ensure_ascii=False),
            len(authors) or None, None, None, None, None, None, None, None, None, None,
            citekey, sources, stamp, stamp]])
        e.result = MadePaper(pid)
    return e.changes


@dataclass(frozen=True)
class MadePaper(ch.Result):
    """A paper made from a PDF: its id."""

    paper_id: int

"""Local stand-ins for arXiv's API and Crossref, on loopback, for tests.

- ``GET /api/query?id_list=A,B&max_results=N``: arXiv's Atom feed (``feed`` of ``entry``
  elements with ``id`` http://arxiv.org/abs/IDvN, ``published``, ``updated``, ``title``,
  ``summary``, ``author/name`` in order, ``arxiv:doi``, ``arxiv:journal_ref``,
  ``arxiv:primary_category``, ``category``, ``link``s), as export.arxiv.org sends it; an
  id it does not know is left out, a malformed one is an error entry, as arXiv does.
- ``GET /api/query?search_query=cat:cs.CL&sortBy=submittedDate&sortOrder=descending``
  (or ``au:"Name"``): the papers of that category or author, newest submission first.
- ``GET /works/DOI``: Crossref's ``{"status": "ok", "message-type": "work", "message":
  {...}}`` with ``DOI``, ``title`` (a list), ``author`` (``given``/``family``),
  ``issued.date-parts``, ``container-title``, ``abstract`` (JATS), ``URL``; 404 with
  the text "Resource not found." for a DOI it does not know.

- ``GET /pdf/IDvN``: the PDF of that version (``pdfs``), ``application/pdf``, as
  arxiv.org/pdf serves it; 404 for one it does not have.

Every request is logged with when it began and ended, and how many were being
answered at once (``most_at_once``), so a test can check the spacing and the single
connection. ``answer(prefix, status, body, headers, times)`` sets a fault; ``cut``
sends only that many bytes of it (its Content-Length the whole) and closes the
connection, ``trickle`` sends it a byte every so many seconds; a "Content-Length" of
"" among its headers sends none (the body ends when the connection closes).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse
from xml.sax.saxutils import escape

from tests.local_server import Fault, LocalServer, send

FEED_HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"'
             ' xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"'
             ' xmlns:arxiv="http://arxiv.org/schemas/atom">\n'
             '  <id>https://arxiv.org/api/x</id>\n  <title>arXiv Query</title>\n'
             '  <updated>2026-12-01T00:00:00Z</updated>\n')


@dataclass
class ArxivPaper:
    arxiv_id: str
    title: str
    summary: str
    authors: list[str]
    published: str = "2024-01-22"
    version: int = 1
    doi: str | None = None
    journal_ref: str | None = None
    categories: list[str] = field(default_factory=lambda: ["cs.CL", "cs.LG"])

    def entry(self) -> str:
        vid = f"{self.arxiv_id}v{self.version}"
        parts = [f"  <entry>\n    <id>http://arxiv.org/abs/{vid}</id>",
                 f"    <updated>{self.published}T18:00:00Z</updated>",
                 f"    <published>{self.published}T17:00:00Z</published>",
                 f"    <title>{escape(self.title)}</title>",
                 f"    <summary>  {escape(self.summary)}\n  </summary>"]
        parts += [f"    <author>\n      <name>{escape(a)}</name>\n    </author>"
                  for a in self.authors]
        if self.doi:
            parts.append(f"    <arxiv:doi>{escape(self.doi)}</arxiv:doi>")
        if self.journal_ref:
            parts.append(f"    <arxiv:journal_ref>{escape(self.journal_ref)}</arxiv:journal_ref>")
        parts.append(f'    <link href="http://arxiv.org/abs/{vid}" rel="alternate" '
                     'type="text/html"/>')
        parts.append(f'    <link title="pdf" href="http://arxiv.org/pdf/{vid}" rel="related" '
                     'type="application/pdf"/>')
        parts.append(f'    <arxiv:primary_category term="{self.categories[0]}" '
                     'scheme="http://arxiv.org/schemas/atom"/>')
        parts += [f'    <category term="{c}" scheme="http://arxiv.org/schemas/atom"/>'
                  for c in self.categories]
        return "\n".join(parts) + "\n  </entry>\n"


def crossref_work(doi: str, title: str, authors: list[tuple[str, str]], year: int,
                  month: int = 6, day: int = 3, container: str = "Proceedings of KDD",
                  abstract: str | None = None) -> dict[str, Any]:
    work: dict[str, Any] = {
        "DOI": doi, "type": "proceedings-article", "title": [title],
        "author": [{"given": g, "family": f, "sequence": "first" if n == 0 else "additional",
                    "affiliation": []} for n, (g, f) in enumerate(authors)],
        "issued": {"date-parts": [[year, month, day]]},
        "published-print": {"date-parts": [[year, month]]},
        "container-title": [container], "publisher": "ACM", "URL": f"https://doi.org/{doi}",
        "reference-count": 12, "is-referenced-by-count": 40}
    if abstract:
        work["abstract"] = f"<jats:p>{abstract}</jats:p>"
    return work




class FakeServices(LocalServer):
    """arXiv's API under ``/api/query`` and Crossref under ``/works/``, on one port."""

    def __init__(self, host: str = "127.0.0.1") -> None:
        super().__init__(host)
        self.arxiv: dict[str, ArxivPaper] = {}
        self.works: dict[str, dict[str, Any]] = {}
        self.pdfs: dict[str, bytes] = {}  # "IDvN": the PDF's bytes
        self.faults: list[Fault] = []
        self._log: list[tuple[float, float, str]] = []  # (began, ended, path)
        self.agents: list[str] = []
        self.at_once = 0
        self.most_at_once = 0

    @property
    def env(self) -> dict[str, str]:
        return {"PAPERDESK_ARXIV_API": self.url + "/api/query",
                "PAPERDESK_ARXIV_PDF": self.url + "/pdf",
                "PAPERDESK_CROSSREF_API": self.url}

    def answer(self, prefix: str, status: int, body: bytes = b"", times: int = 1,
               headers: dict[str, str] | None = None, cut: int | None = None,
               trickle: float | None = None) -> None:
        self.faults.append(Fault(prefix, status, body, headers or {}, times, cut=cut,
                                 trickle=trickle))

    @property
    def log(self) -> list[tuple[float, float, str]]:
        """Every request (began, ended, path), once every request in flight is logged: a
        request is logged after its answer is sent, so a client can have the answer
        first (a test that read the log at once on a busy machine missed the last)."""
        deadline = time.monotonic() + 10
        while self.at_once and time.monotonic() < deadline:
            time.sleep(0.005)
        return self._log

    def paths(self, prefix: str = "") -> list[str]:
        """The paths asked for, once every request in flight is logged."""
        return [p for _, _, p in self.log if p.startswith(prefix)]

    def _serve(self, handler: BaseHTTPRequestHandler) -> None:
        began = time.monotonic()
        with self.lock:
            self.agents.append(handler.headers.get("User-Agent", ""))
            self.at_once += 1
            self.most_at_once = max(self.most_at_once, self.at_once)
        try:
            time.sleep(0.05)  # long enough for a second connection to overlap
            self._answer(handler)
        finally:
            ended = getattr(handler, "sent_at", None) or time.monotonic()
            with self.lock:
                self.at_once -= 1
                self._log.append((began, ended, handler.path))

    def _answer(self, handler: BaseHTTPRequestHandler) -> None:
        url = urlparse(handler.path)
        path, query = unquote(url.path), parse_qs(url.query)
        fault = self.take_fault(path)
        if fault is not None:
            return send(handler, fault.status, fault.body, fault.headers, fault.cut,
                              fault.trickle)
        if path.startswith("/pdf/"):
            pdf = self.pdfs.get(path[len("/pdf/"):])
            if pdf is None:
                return send(handler, 404, b"<html>No such paper</html>",
                                  {"Content-Type": "text/html"})
            return send(handler, 200, pdf, {"Content-Type": "application/pdf"})
        if path == "/api/query" and "search_query" in query:
            found = self._search(query["search_query"][0],
                                 int(query.get("max_results", ["10"])[0]))
            body = FEED_HEAD + "".join(p.entry() for p in found) + "</feed>\n"
            return send(handler, 200, body.encode("utf-8"),
                              {"Content-Type": "application/atom+xml; charset=utf-8"})
        if path == "/api/query":
            ids = [i for i in query.get("id_list", [""])[0].split(",") if i]
            body = FEED_HEAD + "".join(self._entry(i) for i in ids) + "</feed>\n"
            return send(handler, 200, body.encode("utf-8"),
                              {"Content-Type": "application/atom+xml; charset=utf-8"})
        if path.startswith("/works/"):
            work = self.works.get(path[len("/works/"):].lower())
            if work is None:
                return send(handler, 404, b"Resource not found.",
                                  {"Content-Type": "text/plain"})
            data = {"status": "ok", "message-type": "work", "message-version": "1.0.0",
                    "message": work}
            return send(handler, 200, json.dumps(data).encode("utf-8"),
                              {"Content-Type": "application/json"})
        return send(handler, 404, b"not found", {})

    def _search(self, search: str, limit: int) -> list[ArxivPaper]:
        if search.startswith("cat:"):
            hits = [p for p in self.arxiv.values() if search[4:] in p.categories]
        elif search.startswith("au:"):
            name = search[3:].strip('"').lower()
            hits = [p for p in self.arxiv.values() if name in (a.lower() for a in p.authors)]
        else:
            hits = []
        return sorted(hits, key=lambda p: (p.published, p.arxiv_id), reverse=True)[:limit]

    def _entry(self, asked: str) -> str:
        base = asked.split("v")[0] if "." in asked else asked
        paper = self.arxiv.get(base)
        if paper is not None:
            return paper.entry()
        if not any(c.isdigit() for c in asked):
            return (f"  <entry>\n    <id>http://arxiv.org/api/errors#incorrect_id_format_for"
                    f"_{escape(asked)}</id>\n    <title>Error</title>\n    <summary>incorrect "
                    f"id format for {escape(asked)}</summary>\n  </entry>\n")
        return ""

"""Local stand-ins for DBLP's publication search and Semantic Scholar's paper lookup, on
loopback, for the tests of ``paperdesk published``.

- ``GET /search/publ/api?q=TITLE&format=json&h=N``: DBLP's ``{"result": {"query",
  "status": {"@code": "200", "text": "OK"}, "time", "completions", "hits": {"@total",
  "@computed", "@sent", "@first", "hit": [{"@score", "@id", "info": {"authors":
  {"author": [{"@pid", "text"}]}, "title" (ending in "."), "venue", "pages", "year",
  "type", "access", "key", "doi", "ee", "url"}, "url"}]}}}``; the hits are the
  publications whose title holds every word asked, the preprint (CoRR) among them.
- ``GET /graph/v1/paper/arXiv:ID?fields=...``: Semantic Scholar's paper: ``paperId``,
  ``externalIds`` (``ArXiv``, ``DBLP``, ``DOI``, ``CorpusId``), ``title``, ``venue``,
  ``year``, ``publicationVenue`` (``id``, ``name``, ``type``, ``alternate_names``,
  ``url``), ``journal`` (``name``, ``pages``, ``volume``), ``publicationTypes``; 404
  ``{"error": "Paper with id arXiv:X not found"}`` for one it does not know.

``answer(prefix, status, body, headers, times, delay)`` sets a fault; every request is
logged (path and query).
"""

from __future__ import annotations

import json
import re
import time
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse

from tests.local_server import Fault, LocalServer, send


def dblp_hit(title: str, venue: str, year: int, kind: str, key: str, *,
             pages: str | None = None, doi: str | None = None,
             volume: str | None = None) -> dict[str, Any]:
    """One DBLP hit (``kind``: "Conference and Workshop Papers", "Journal Articles",
    "Informal and Other Publications")."""
    info: dict[str, Any] = {
        "authors": {"author": [{"@pid": "01/1", "text": "Ada Lovelace"},
                               {"@pid": "02/2", "text": "Alan Turing"}]},
        "title": title + ".", "venue": venue, "year": str(year), "type": kind,
        "access": "open", "key": key, "ee": f"https://example.org/{key}",
        "url": f"https://dblp.org/rec/{key}"}
    for name, value in (("pages", pages), ("doi", doi), ("volume", volume)):
        if value:
            info[name] = value
    return {"@score": "10", "@id": str(abs(hash(key)) % 10**7), "info": info,
            "url": f"URL#{abs(hash(key)) % 10**7}"}


def s2_paper(arxiv_id: str, title: str, venue: str, year: int, *, kind: str = "conference",
             dblp_key: str | None = None, doi: str | None = None, pages: str | None = None,
             volume: str | None = None) -> dict[str, Any]:
    """A Semantic Scholar paper record (``kind``: conference or journal)."""
    ids: dict[str, Any] = {"ArXiv": arxiv_id, "CorpusId": abs(hash(arxiv_id)) % 10**8}
    if dblp_key:
        ids["DBLP"] = dblp_key
    if doi:
        ids["DOI"] = doi
    return {"paperId": f"{abs(hash(title)):040x}"[:40], "externalIds": ids, "title": title,
            "venue": venue, "year": year,
            "publicationVenue": {"id": "0d6f7fba-7092-46b3-8039-93458dba736b", "name": venue,
                                 "type": kind, "alternate_names": [], "url": None},
            "journal": {"name": venue, **({"pages": pages} if pages else {}),
                        **({"volume": volume} if volume else {})},
            "publicationTypes": ["Conference"] if kind == "conference" else
            ["JournalArticle"]}


class FakeScholarly(LocalServer):
    """DBLP under ``/search/publ/api`` and Semantic Scholar under ``/graph/v1/``."""

    def __init__(self) -> None:
        super().__init__(quiet_errors=True)
        self.hits: list[dict[str, Any]] = []
        self.papers: dict[str, dict[str, Any]] = {}
        self.faults: list[Fault] = []
        self.log: list[str] = []

    @property
    def env(self) -> dict[str, str]:
        return {"PAPERDESK_DBLP_API": self.url, "PAPERDESK_S2_API": self.url}

    def answer(self, prefix: str, status: int, body: bytes = b"", times: int = 1,
               headers: dict[str, str] | None = None, delay: float = 0.0) -> None:
        self.faults.append(Fault(prefix, status, body, headers or {}, times, delay))

    def _serve(self, handler: BaseHTTPRequestHandler) -> None:
        path = handler.path
        with self.lock:
            self.log.append(path)
        fault = self.take_fault(path)
        if fault:
            time.sleep(fault.delay)
            return send(handler, fault.status, fault.body, fault.headers)
        url = urlparse(path)
        if url.path == "/search/publ/api":
            words = set(re.findall(r"\w+", parse_qs(url.query).get("q", [""])[0].lower()))
            hits = [h for h in self.hits
                    if words <= set(re.findall(r"\w+", h["info"]["title"].lower()))]
            body = {"result": {"query": "x", "status": {"@code": "200", "text": "OK"},
                               "time": {"@unit": "msecs", "text": "1.00"},
                               "completions": {"@total": "0", "@computed": "0",
                                               "@sent": "0", "c": []},
                               "hits": {"@total": str(len(hits)), "@computed": str(len(hits)),
                                        "@sent": str(len(hits)), "@first": "0",
                                        "hit": hits}}}
            return send(handler, 200, json.dumps(body).encode(), {})
        if url.path.startswith("/graph/v1/paper/arXiv:"):
            arxiv_id = unquote(url.path.rsplit(":", 1)[1])
            paper = self.papers.get(arxiv_id)
            if paper is None:
                return send(handler, 404, json.dumps(
                    {"error": f"Paper with id arXiv:{arxiv_id} not found"}).encode(), {})
            return send(handler, 200, json.dumps(paper).encode(), {})
        return send(handler, 404, b'{"error": "Not found"}', {})

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
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse


@dataclass
class Fault:
    prefix: str
    status: int
    body: bytes
    headers: dict[str, str]
    times: int
    delay: float = 0.0


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


class FakeScholarly:
    """DBLP under ``/search/publ/api`` and Semantic Scholar under ``/graph/v1/``."""

    def __init__(self) -> None:
        self.hits: list[dict[str, Any]] = []
        self.papers: dict[str, dict[str, Any]] = {}
        self.faults: list[Fault] = []
        self.log: list[str] = []
        self.lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                fake._serve(self)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.server.handle_error = lambda *_a: None  # a client that hung up: not news
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.02,),
                                       daemon=True)

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def env(self) -> dict[str, str]:
        return {"PAPERDESK_DBLP_API": self.url, "PAPERDESK_S2_API": self.url}

    def __enter__(self) -> FakeScholarly:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def answer(self, prefix: str, status: int, body: bytes = b"", times: int = 1,
               headers: dict[str, str] | None = None, delay: float = 0.0) -> None:
        self.faults.append(Fault(prefix, status, body, headers or {}, times, delay))

    def _serve(self, handler: BaseHTTPRequestHandler) -> None:
        path = handler.path
        with self.lock:
            self.log.append(path)
            fault = next((f for f in self.faults if path.startswith(f.prefix) and f.times), None)
            if fault:
                fault.times -= 1
        if fault:
            time.sleep(fault.delay)
            return self._send(handler, fault.status, fault.body, fault.headers)
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
            return self._send(handler, 200, json.dumps(body).encode(), {})
        if url.path.startswith("/graph/v1/paper/arXiv:"):
            arxiv_id = unquote(url.path.rsplit(":", 1)[1])
            paper = self.papers.get(arxiv_id)
            if paper is None:
                return self._send(handler, 404, json.dumps(
                    {"error": f"Paper with id arXiv:{arxiv_id} not found"}).encode(), {})
            return self._send(handler, 200, json.dumps(paper).encode(), {})
        return self._send(handler, 404, b'{"error": "Not found"}', {})

    @staticmethod
    def _send(handler: BaseHTTPRequestHandler, status: int, body: bytes,
              headers: dict[str, str]) -> None:
        try:
            handler.send_response(status)
            for key, value in {"Content-Type": "application/json", **headers}.items():
                handler.send_header(key, value)
            handler.send_header("Content-Length", str(len(body)))
            handler.end_headers()
            handler.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass


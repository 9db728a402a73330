"""A local stand-in for the Hugging Face Hub's papers API, on loopback, for tests and bench.

It speaks the JSON that ``huggingface_hub`` parses (``PaperInfo``/``PaperAuthor``):

- ``GET /api/papers/{id}``: the paper record: ``id``, ``authors`` (``name``, ``hidden``,
  ``_id``, sometimes ``user``), ``publishedAt``, ``title``, ``summary``, ``upvotes``,
  ``discussionId``, ``githubRepo``, ``projectPage``, ``organization``...
- ``GET /api/papers/search?q=&limit=``: a list of ``{"paper": {...}, "title",
  "publishedAt", "numComments", "submittedBy", ...}`` items, best matches first.
- ``GET /api/daily_papers?date=&p=&limit=``: the same items, for one day.

Faults are set per test: ``fail(path_prefix, status, times, headers, body, delay)``;
a hostile server also has ``trickle`` (the body one byte per that many seconds: a
slow-loris), ``cut`` (that many bytes of the body, then the connection closes),
``stream`` (a body of that many bytes sent chunked, without a ``Content-Length``)
and ``location`` (a redirect, with the status given, to that address followed by
the path and query asked for). ``FakeHub(host=)`` binds another loopback address
(``127.0.0.2``: a second host for redirects to point at). ``extra`` items (raw
JSON, broken ones too) end every search answer and the first page of every day.
Every request is counted and logged.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse

from tests.local_server import LocalServer, send

_WORD = re.compile(r"\w+")


@dataclass
class Fault:
    prefix: str
    status: int
    times: int
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b'{"error": "fault"}'
    delay: float = 0.0
    trickle: float = 0.0   # seconds between the body's bytes
    stream: int = 0        # bytes of a huge chunked body of spaces after "["
    location: str = ""     # redirect to this address + the path and query asked for
    cut: int | None = None  # only this many bytes of the body, then the connection closes


def record(arxiv_id: str, title: str, summary: str, authors: list[str], published: str,
           *, upvotes: int = 0, github: str | None = None, project: str | None = None,
           organization: tuple[str, str] | None = None) -> dict[str, Any]:
    """A paper record in the Hub's shape."""
    paper: dict[str, Any] = {
        "id": arxiv_id,
        "authors": [{"_id": f"a{n}{arxiv_id}", "name": name, "hidden": False,
                     **({"user": {"_id": "u1", "user": "someone", "fullname": name,
                                  "avatarUrl": "/avatars/x.svg", "isPro": False,
                                  "type": "user"}} if n == 0 else {})}
                    for n, name in enumerate(authors)],
        "mediaUrls": [],
        "publishedAt": f"{published}T17:59:59.000Z",
        "submittedOnDailyAt": f"{published}T20:12:00.000Z",
        "title": title,
        "submittedOnDailyBy": {"_id": "s1", "avatarUrl": "/avatars/s.svg", "isPro": False,
                               "fullname": "AK", "user": "akhaliq", "type": "user"},
        "summary": summary,
        "upvotes": upvotes,
        "discussionId": f"d{arxiv_id}",
        "ai_summary": "A summary.",
        "ai_keywords": ["scaling"],
    }
    if github:
        paper["githubRepo"] = github
        paper["githubStars"] = 12
    if project:
        paper["projectPage"] = project
    if organization:
        paper["organization"] = {"_id": "o1", "name": organization[0],
                                 "fullname": organization[1], "avatar": "/avatars/o.png"}
    return paper


def list_item(paper: dict[str, Any]) -> dict[str, Any]:
    """A search / daily-papers item: the record nested under "paper", as the Hub does."""
    inner = {k: v for k, v in paper.items() if k not in ("organization",)}
    item = {"paper": inner, "publishedAt": paper["submittedOnDailyAt"],
            "title": paper["title"], "summary": paper["summary"],
            "thumbnail": f"https://cdn.example/{paper['id']}.png", "numComments": 2,
            "submittedBy": paper["submittedOnDailyBy"], "isAuthorParticipating": False}
    if "organization" in paper:
        item["organization"] = paper["organization"]
    return item


class FakeHub(LocalServer):
    def __init__(self, host: str = "127.0.0.1") -> None:
        super().__init__(host)
        self.papers: dict[str, dict[str, Any]] = {}
        self.days: dict[str, list[str]] = {}
        self.faults: list[Fault] = []
        self.extra: list[Any] = []  # items put at the end of every list answered
        self.requests: list[str] = []

    # -- set-up ----------------------------------------------------------------

    def add(self, paper: dict[str, Any], day: str | None = None) -> None:
        self.papers[paper["id"]] = paper
        if day:
            self.days.setdefault(day, []).append(paper["id"])

    def fail(self, prefix: str, status: int, times: int = 1, **kw: Any) -> None:
        self.faults.append(Fault(prefix, status, times, **kw))

    def count(self, prefix: str) -> int:
        return sum(1 for r in self.requests if r.startswith(prefix))

    # -- serving ---------------------------------------------------------------

    def _serve(self, handler: BaseHTTPRequestHandler) -> None:
        url = urlparse(handler.path)
        path, query = unquote(url.path), parse_qs(url.query)
        with self.lock:
            self.requests.append(handler.path)
        fault = self.take_fault(path)
        if fault is not None:
            if fault.delay:
                time.sleep(fault.delay)
            if fault.location:
                return send(handler, fault.status, b"",
                        {**fault.headers, "Location": fault.location + handler.path})
            if fault.trickle:
                return send(handler, fault.status or 200, fault.body, fault.headers,
                            trickle=fault.trickle)
            if fault.stream:
                return self._stream(handler, fault)
            if fault.cut is not None:
                return send(handler, fault.status or 200, fault.body, fault.headers,
                            cut=fault.cut)
            if fault.status:
                return send(handler, fault.status, fault.body, fault.headers)
        if path == "/api/papers/search":
            return self._json(handler, self._search(query.get("q", [""])[0],
                                                    int(query.get("limit", ["20"])[0])))
        if path == "/api/daily_papers":
            ids = self.days.get(query.get("date", [""])[0], [])
            page, limit = int(query.get("p", ["0"])[0]), int(query.get("limit", ["50"])[0])
            return self._json(handler, [list_item(self.papers[i])
                                        for i in ids[page * limit:(page + 1) * limit]]
                              + (self.extra if page == 0 else []))
        if path.startswith("/api/papers/"):
            paper = self.papers.get(path.rsplit("/", 1)[1])
            if paper is None:
                return send(handler, 404, b'{"error": "Paper not found"}')
            return self._json(handler, paper)
        return send(handler, 404, b'{"error": "not found"}')

    def _search(self, q: str, limit: int) -> list[dict[str, Any]]:
        words = set(_WORD.findall(q.lower()))
        scored = []
        for paper in self.papers.values():
            shared = len(words & set(_WORD.findall(paper["title"].lower())))
            if shared:
                scored.append((-shared, paper["id"], paper))
        scored.sort(key=lambda t: (t[0], t[1]))
        return [list_item(p) for _, _, p in scored[:limit]] + self.extra

    def _json(self, handler: BaseHTTPRequestHandler, data: Any) -> None:
        send(handler, 200, json.dumps(data).encode("utf-8"))

    @staticmethod
    def _stream(handler: BaseHTTPRequestHandler, fault: Fault) -> None:
        """A chunked body of ``stream`` bytes: "[" and spaces, no Content-Length."""
        try:
            handler.send_response(fault.status or 200)
            handler.send_header("Content-Type", "application/json")
            for key, value in fault.headers.items():
                handler.send_header(key, value)
            handler.send_header("Transfer-Encoding", "chunked")
            handler.end_headers()
            chunk = b"[" + b" " * (2**20 - 1)
            sent = 0
            while sent < fault.stream:
                handler.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                sent += len(chunk)
                chunk = b" " * 2**20
            handler.wfile.write(b"1\r\n]\r\n0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass


NAMES = ["Jan van der Berg", "Niamh Ó Briain", "Zoë Ñúñez", "José García Jr.", "Łukasz Kaiser",
         "Ashish Vaswani", "Mia Müller", "Chen Wei", "Ludwig von Mises", "Amélie Dupré"]


def populate_from(lib: Any, hub: FakeHub, *, skip_every: int = 0) -> list[int]:
    """Give the hub a record for each paper of ``lib`` (names from NAMES, the paper's
    organisation as its only author); every ``skip_every``-th paper is left out.
    Returns the ids of the papers the hub knows."""
    known = []
    rows = lib.db.execute("SELECT id, title, abstract, organization, organization_handle, "
                          "published, year, year_inferred FROM papers ORDER BY id").fetchall()
    for n, (pid, title, abstract, org, handle, published, year, inferred) in enumerate(rows):
        if skip_every and n % skip_every == skip_every - 1:
            continue
        if org:
            authors = [f"{org}-AI" if " " not in org else org]
        else:
            authors = [NAMES[(n + k) % len(NAMES)] for k in range(1 + n % 3)]
        day = published or f"{year or 2024}-06-01"
        if inferred:
            day = f"{int(day[:4]) - 1}{day[4:]}"  # the digest guessed the year wrong
        hub.add(record(f"24{n % 12 + 1:02d}.{n:05d}", title, abstract, authors, day,
                       upvotes=n, github=f"https://github.com/lab{n}/code" if n % 2 else None,
                       organization=(handle or org.lower(), org) if org else None))
        known.append(pid)
    return known

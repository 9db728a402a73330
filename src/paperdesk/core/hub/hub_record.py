"""A Hub paper record checked field by field before PaperDesk takes anything from it.

The JSON is read by ``huggingface_hub``'s own ``PaperInfo`` (it knows the
Hub's field names); this module then holds every value to what PaperDesk can
store and print:

- every string has its control characters (C0, C1, DEL) and line and paragraph
  separators turned into spaces, its invisible format characters (zero-width,
  bidirectional overrides) removed and its whitespace collapsed to single spaces
  (``text.one_line``, as digests are read), so no name can start a new line in a
  digest page or a report;
- a field of the wrong type (a list where a link belongs, an author that is not
  an object), or longer than any real one (``MAX_CHARS``, ``MAX_AUTHORS``), makes
  the record malformed: that paper fails alone, with one line. In a list of
  records (a search, a day) a malformed one is left out and named (``Broken``:
  its id as sent, else its title, else its place), and the others are read;
- numbers are range-checked: upvotes must be an integer from 0 to 2^63 - 1 (what
  SQLite stores); another value is refused, reported in ``problems``, and the
  rest of the record is kept.

The grammar of identifiers (arXiv ids, URLs, GitHub repositories) is not checked
here; the library checks it where identifiers enter it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from paperdesk.core.model.text import one_line

MAX_UPVOTES = 2**63 - 1
# The longest text each field may hold: far past any real one (arXiv's longest
# titles are some 300 characters), so a longer one is junk, never cut to fit.
MAX_CHARS = {"id": 100, "title": 2_000, "summary": 100_000, "author name": 1_000,
             "githubRepo": 2_000, "projectPage": 2_000, "organization": 1_000}
MAX_AUTHORS = 10_000  # the largest collaborations sign some 5,000


class Malformed(ValueError):
    """A record (or a field of it) is not what the Hub's API sends."""


@dataclass
class HubPaper:
    """What PaperDesk takes from a Hub paper record."""

    arxiv_id: str
    title: str
    abstract: str
    authors: list[str]
    published: str | None  # YYYY-MM-DD
    upvotes: int | None
    github: str | None
    project_page: str | None
    organization: str | None = None
    organization_handle: str | None = None
    problems: list[str] = field(default_factory=list)  # fields refused, one line each


def clean(value: Any, name: str) -> str:
    """A string field on one line without control characters; '' for a missing one."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise Malformed(f"{name} is a {type(value).__name__}, not text")
    if len(value) > MAX_CHARS.get(name, 100_000):
        raise Malformed(f"{name} is {len(value):,} characters long, more than "
                        f"{MAX_CHARS.get(name, 100_000):,}")
    return one_line(value)


def upvotes(value: Any, problems: list[str]) -> int | None:
    """The upvotes if they are an integer SQLite can hold and not negative, else None."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        problems.append(f"upvotes refused: {type(value).__name__}, not a whole number")
        return None
    if not 0 <= value <= MAX_UPVOTES:
        problems.append(f"upvotes refused: {str(value)[:30]} is out of range")
        return None
    return value


def from_json(data: Any) -> HubPaper:
    """A record (or a search/daily item) of the Hub's JSON as a HubPaper; Malformed if not."""
    from huggingface_hub.hf_api import PaperInfo

    if not isinstance(data, dict) or not isinstance(data.get("paper", {}), dict):
        raise Malformed("a paper record is not a JSON object")
    try:
        info = PaperInfo(**_only_read(data))
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise Malformed(f"a paper record is malformed ({type(exc).__name__})") from None
    try:
        return _paper(info)
    except (ValueError, TypeError, AttributeError) as exc:  # Malformed is a ValueError
        if isinstance(exc, Malformed):
            raise
        raise Malformed(f"a paper record is malformed ({type(exc).__name__})") from None


# Lists and objects PaperInfo builds objects of (ModelInfo, User...) that PaperDesk never
# reads: junk in one of them (a linked model without an id) must not cost the paper.
UNREAD = frozenset({"linkedModels", "linkedDatasets", "linkedSpaces", "submittedBy",
                    "submittedOnDailyBy"})


def _only_read(data: dict[Any, Any]) -> dict[str, Any]:
    """A copy of the record without what PaperDesk never reads (``UNREAD``, each
    author's ``user``); PaperInfo pops what it reads from the nested "paper", so it
    gets a copy of that too, and of each author."""
    top = {k: v for k, v in data.items() if isinstance(k, str) and k not in UNREAD}
    if isinstance(top.get("paper"), dict):
        top["paper"] = {k: v for k, v in top["paper"].items() if k not in UNREAD}
    for holder in (top, top.get("paper") or {}):
        if isinstance(holder.get("authors"), list):
            holder["authors"] = [{k: v for k, v in a.items() if k != "user"}
                                 if isinstance(a, dict) else a for a in holder["authors"]]
    return top


@dataclass(frozen=True)
class Broken:
    """A record of a list that could not be read: left out, and named."""

    name: str   # "'<its id>'" or "titled '<its title>'" as sent (cut at 40), else ""
    title: str  # its title if that much is text, for telling whose record it was
    place: int  # its place in the list, from 1
    why: str

    @classmethod
    def of(cls, data: Any, place: int, why: str) -> Broken:
        outer = data if isinstance(data, dict) else {}
        paper = outer.get("paper")
        inner = paper if isinstance(paper, dict) else {}
        raw_id, title = outer.get("id") or inner.get("id"), outer.get("title") or inner.get(
            "title")
        title = one_line(title[:MAX_CHARS["title"]]) if isinstance(title, str) else ""
        shown = one_line(raw_id[:40]) if isinstance(raw_id, str) else ""
        name = repr(shown) if shown else f"titled {title[:40]!r}" if title else ""
        return cls(name, title, place, why)

    def line(self, what: str) -> str:
        """One line for the report of ``what`` (a search, a day)."""
        if self.name:
            return f"{what}: the Hub's record {self.name} is malformed ({self.why}); left out"
        return f"{what}, item {self.place}: the Hub's record is malformed ({self.why}); left out"


def from_list(items: list[Any], start: int = 1) -> tuple[list[HubPaper], list[Broken]]:
    """The records of a list that can be read, and the ones that cannot (each alone);
    ``start`` is the place of the first item, counted from 1."""
    papers: list[HubPaper] = []
    broken: list[Broken] = []
    for n, item in enumerate(items, start):
        try:
            papers.append(from_json(item))
        except Malformed as exc:
            broken.append(Broken.of(item, n, str(exc)))
    return papers, broken


def _paper(info: Any) -> HubPaper:
    arxiv_id = clean(info.id, "id")
    if not arxiv_id:
        raise Malformed("a paper without an id")
    listed = _listed(info.authors, "authors")
    if len(listed) > MAX_AUTHORS:
        raise Malformed(f"{len(listed):,} authors, more than {MAX_AUTHORS:,}")
    authors = [clean(a.name, "author name") for a in listed]
    org = info.organization
    problems: list[str] = []
    return HubPaper(
        arxiv_id=arxiv_id, title=clean(info.title, "title"),
        abstract=clean(info.summary, "summary"), authors=[a for a in authors if a],
        published=info.published_at.date().isoformat() if info.published_at else None,
        upvotes=upvotes(info.upvotes, problems),
        github=clean(info.github_repo, "githubRepo") or None,
        project_page=clean(info.project_page, "projectPage") or None,
        organization=(clean(org.fullname, "organization") or clean(org.name, "organization")
                      or None) if org else None,
        organization_handle=clean(org.name, "organization") or None if org else None,
        problems=problems)


def _listed(value: Any, name: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise Malformed(f"{name} is not a list")
    return value

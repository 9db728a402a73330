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
  an object) makes the record malformed: that paper fails alone, with one line;
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
        info = PaperInfo(**{k: v for k, v in data.items() if isinstance(k, str)})
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise Malformed(f"a paper record is malformed ({type(exc).__name__})") from None
    return _paper(info)


def _paper(info: Any) -> HubPaper:
    arxiv_id = clean(info.id, "id")
    if not arxiv_id:
        raise Malformed("a paper without an id")
    authors = [clean(a.name, "author name") for a in _listed(info.authors, "authors")]
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

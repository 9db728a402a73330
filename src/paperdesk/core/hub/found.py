"""What a metadata service (arXiv, Crossref) said of one paper, checked field by field.

Every string is on one line without control or invisible characters (``text.one_line``,
as the Hub's records are), authors in the order the service gave; an identifier that
does not match its grammar (``identifiers``) is dropped with a line in ``problems``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from paperdesk.core.model import identifiers
from paperdesk.core.model.text import one_line

MAX_FIELD = 100_000  # characters of one field kept (an abstract is a few thousand)
MAX_AUTHORS = 5_000


@dataclass
class Found:
    source: str                 # arxiv, crossref (a key of sources.LABELS)
    title: str
    abstract: str = ""
    authors: list[str] = field(default_factory=list)
    published: str | None = None  # YYYY-MM-DD
    year: int | None = None       # where only the year is known
    arxiv_id: str | None = None   # without its version
    version: int | None = None
    doi: str | None = None
    url: str | None = None
    venue: str | None = None      # a journal reference or the container's title
    categories: list[str] = field(default_factory=list)
    upvotes: int | None = None    # the Hub's, where it knows the paper
    github: str | None = None
    project_page: str | None = None
    problems: list[str] = field(default_factory=list)


def text(value: object) -> str:
    """A field as one clean line ('' for anything that is not text)."""
    return one_line(value[:MAX_FIELD]) if isinstance(value, str) else ""


def checked(found: Found) -> Found:
    """``found`` with its identifiers held to their grammar and its lists bounded."""
    for kind, name in (("arxiv_id", "arxiv_id"), ("doi", "doi"), ("url", "url"),
                       ("github", "github"), ("project_page", "project_page")):
        value = getattr(found, name)
        if value is not None and not identifiers.valid(kind, value):
            found.problems.append(identifiers.problem(kind, value) or name)
            setattr(found, name, None)
    found.authors = [a for a in found.authors[:MAX_AUTHORS] if a]
    return found

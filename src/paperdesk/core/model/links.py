"""What a person pastes to add a paper, read as the identifier it names (pure).

``paperdesk add`` and the window's Add by identifier take arXiv ids (new style
``2401.12345`` with or without ``v2``, old style ``hep-th/9901001``, either with
``arXiv:`` before it), arXiv pages (``/abs/``, ``/pdf/`` with or without ``.pdf``,
``/html/``, on arxiv.org, export.arxiv.org or www.arxiv.org), Hugging Face paper pages
(``huggingface.co/papers/ID``), DOIs (``10.1145/...``, ``doi:...``, ``https://doi.org/...``
and ``dx.doi.org``) and OpenReview forum or PDF links (``openreview.net/forum?id=...``).
Anything else is refused with one line saying what is taken; nothing is guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qs, unquote, urlsplit

from paperdesk.core.model import identifiers
from paperdesk.core.model.errors import PaperDeskError

MAX_LENGTH = 2000  # longer than any link of these services

ARXIV, DOI, OPENREVIEW = "arxiv", "doi", "openreview"
_ARXIV_HOSTS = {"arxiv.org", "www.arxiv.org", "export.arxiv.org"}
_HF_HOSTS = {"huggingface.co", "www.huggingface.co", "hf.co"}
_DOI_HOSTS = {"doi.org", "dx.doi.org", "www.doi.org"}
_OPENREVIEW_HOSTS = {"openreview.net", "www.openreview.net"}
_VERSION = re.compile(r"^(?P<base>.+?)v(?P<n>[1-9][0-9]{0,3})$")
_OPENREVIEW_ID = re.compile(r"[A-Za-z0-9_\-]{5,40}")
_ARXIV_PREFIX = re.compile(r"(?i)^arxiv\s*:\s*")
_DOI_PREFIX = re.compile(r"(?i)^doi\s*:\s*")
TAKEN = ("an arXiv id (2401.12345, arXiv:2401.12345v2, hep-th/9901001), an arXiv, "
         "Hugging Face paper or OpenReview link, or a DOI (10.1145/..., doi:..., "
         "https://doi.org/...)")


class LinkError(PaperDeskError):
    """Text that names no paper PaperDesk can add."""


@dataclass(frozen=True)
class Link:
    """One identifier: ``kind`` (arxiv, doi, openreview), ``value`` (an arXiv id without
    its version, a DOI in lower case, an OpenReview forum id), the arXiv ``version``
    when the link named one, and the page ``url`` a browser opens."""

    kind: str
    value: str
    version: int | None = None

    @property
    def url(self) -> str:
        if self.kind == ARXIV:
            return f"https://arxiv.org/abs/{self.value}" + (
                f"v{self.version}" if self.version else "")
        if self.kind == DOI:
            return f"https://doi.org/{self.value}"
        return f"https://openreview.net/forum?id={self.value}"

    def __str__(self) -> str:
        if self.kind == ARXIV:
            return f"arXiv:{self.value}" + (f"v{self.version}" if self.version else "")
        return f"doi:{self.value}" if self.kind == DOI else f"OpenReview {self.value}"


def shown(text: str) -> str:
    """``text`` as a message may quote it: one line, at most 80 characters."""
    one = " ".join(text.split())
    return repr(one if len(one) <= 80 else one[:77] + "...")


def parse(text: str) -> Link:
    """The identifier ``text`` names; LinkError (one line) when it names none."""
    if len(text) > MAX_LENGTH:
        raise LinkError(f"a line of {len(text):,} characters is no identifier; "
                        f"PaperDesk takes {TAKEN}")
    value = text.strip().strip("<>\"'")
    if not value:
        raise LinkError("an empty line is no identifier")
    found = _parse(value)
    if found is None:
        raise LinkError(f"{shown(value)} is not {TAKEN}")
    return found


def naming_papers(texts: list[str]) -> list[str]:
    """Those of ``texts`` that name a paper (a paste or a drop holds other text too)."""
    out = []
    for text in texts:
        try:
            parse(text)
        except LinkError:
            continue
        out.append(text)
    return out


def _parse(value: str) -> Link | None:
    if "://" in value or value.lower().startswith(("arxiv.org/", "www.", "huggingface.co/",
                                                   "doi.org/", "dx.doi.org/", "openreview.net/")):
        return _from_url(value if "://" in value else "https://" + value)
    if _DOI_PREFIX.match(value):
        return _doi(_DOI_PREFIX.sub("", value))
    if value.startswith("10."):
        return _doi(value)
    return _arxiv(_ARXIV_PREFIX.sub("", value))


def _arxiv(value: str) -> Link | None:
    value = value.strip()
    if not identifiers.valid("arxiv_id", value):
        return None
    version = None
    match = _VERSION.match(value)
    if match and identifiers.valid("arxiv_id", match["base"]):
        value, version = match["base"], int(match["n"])
    return Link(ARXIV, value, version)


def _doi(value: str) -> Link | None:
    value = unquote(value.strip())
    return Link(DOI, value.lower()) if identifiers.valid("doi", value) else None


def _from_url(url: str) -> Link | None:
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https"):
        return None
    path = unquote(parts.path)
    if host in _ARXIV_HOSTS:
        for head in ("/abs/", "/pdf/", "/html/", "/format/"):
            if path.startswith(head):
                rest = path[len(head):].rstrip("/")
                return _arxiv(rest[:-4] if rest.lower().endswith(".pdf") else rest)
        return None
    if host in _HF_HOSTS:
        if path.startswith("/papers/"):
            return _arxiv(path[len("/papers/"):].strip("/").split("/")[0])
        return None
    if host in _DOI_HOSTS:
        return _doi(path.lstrip("/")) if len(path) > 1 else None
    if host in _OPENREVIEW_HOSTS and path.rstrip("/") in ("/forum", "/pdf"):
        forum = parse_qs(parts.query).get("id", [""])[0]
        return Link(OPENREVIEW, forum) if _OPENREVIEW_ID.fullmatch(forum) else None
    return None


# The pages a paper can be opened on, in the order menus and ``show`` list them.
PAGES = ("arXiv", "Hugging Face", "DOI", "code", "project page", "page")


def paper_links(paper: dict[str, object]) -> list[tuple[str, str]]:
    """(label, URL) of each page of a paper: arXiv's and the Hub's for an arXiv paper,
    the DOI's, its code and project page, and the URL it came with when it is none of
    those. Only identifiers that match their grammar become links."""
    out: list[tuple[str, str]] = []
    arxiv_id, doi = paper.get("arxiv_id"), paper.get("doi")
    if isinstance(arxiv_id, str) and identifiers.valid("arxiv_id", arxiv_id):
        out.append(("arXiv", f"https://arxiv.org/abs/{arxiv_id}"))
        if "/" not in arxiv_id:  # the Hub's paper pages are of new-style ids
            out.append(("Hugging Face", f"https://huggingface.co/papers/{arxiv_id}"))
    if isinstance(doi, str) and identifiers.valid("doi", doi):
        out.append(("DOI", f"https://doi.org/{doi}"))
    for label, name, kind in (("code", "github", "github"),
                              ("project page", "project_page", "project_page")):
        value = paper.get(name)
        if isinstance(value, str) and identifiers.valid(kind, value):
            out.append((label, value))
    url = paper.get("url")
    if isinstance(url, str) and identifiers.valid("url", url) and not any(
            _same_page(url, known) for _, known in out):
        out.append(("page", url))
    return out


def _same_page(a: str, b: str) -> bool:
    def bare(u: str) -> str:
        u = u.split("://", 1)[-1].removeprefix("www.").rstrip("/")
        return _VERSION.sub(lambda m: m["base"], u) if "arxiv.org/abs/" in u else u
    return bare(a).lower() == bare(b).lower()

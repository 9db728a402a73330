"""arXiv's API: the Atom feed of ``export.arxiv.org/api/query?id_list=``.

Many ids go in one request (arXiv's terms: one connection, three seconds between
requests, no bulk prefetching: ``service.ARXIV_API``). An entry gives the authors in
order, title, abstract, the first version's date, the version, categories, and the DOI
and journal reference when the authors gave them. An id arXiv does not know comes back
as an entry whose id is an error URL, or not at all: it is simply not found.

The answer is untrusted XML: a document type (the way to declare entities) is refused
before parsing, and only the elements named here are read.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable

from paperdesk.core.hub.found import Found, checked, text
from paperdesk.core.hub.hub import HubError
from paperdesk.core.hub.service import ARXIV_API, Service
from paperdesk.core.model.jobs import CancelFlag

ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV = "{http://arxiv.org/schemas/atom}"
BATCH = 50  # ids asked for in one request
_ABS = re.compile(r"^https?://(?:www\.|export\.)?arxiv\.org/abs/(?P<id>.+?)(?:v(?P<v>\d+))?$")


def lookup(ids: Iterable[str], cancel: CancelFlag | None = None,
           service: Service = ARXIV_API) -> dict[str, Found]:
    """Each id arXiv knows (ids without versions) -> what arXiv says of it."""
    wanted = list(dict.fromkeys(ids))
    out: dict[str, Found] = {}
    for first in range(0, len(wanted), BATCH):
        batch = wanted[first:first + BATCH]
        what = f"arXiv {batch[0]}" + (f" and {len(batch) - 1} more" if len(batch) > 1 else "")
        answer = service.get("", {"id_list": ",".join(batch), "max_results": len(batch)},
                             what, cancel)
        if answer is None:
            continue
        for found in entries(answer.body, what):
            if found.arxiv_id in batch:
                out.setdefault(found.arxiv_id, found)
    return out


def listing(query: str, what: str, max_results: int = 100, cancel: CancelFlag | None = None,
            service: Service = ARXIV_API) -> list[Found]:
    """The newest submissions a search (``cat:cs.CL``, ``au:"Ada Lovelace"``) finds,
    newest first: one request."""
    answer = service.get("", {"search_query": query, "sortBy": "submittedDate",
                              "sortOrder": "descending", "start": 0,
                              "max_results": max_results}, what, cancel)
    return [] if answer is None else entries(answer.body, what)


def entries(body: bytes, what: str) -> list[Found]:
    """The papers of one Atom answer; HubError (one line) when it is no Atom feed."""
    head = body[:4096].lower()
    if b"<!doctype" in head or b"<!entity" in body.lower():
        raise HubError(f"{what}: arXiv's answer declares a document type; not read")
    try:
        root = ET.fromstring(body)
    except (ET.ParseError, ValueError, RecursionError):
        raise HubError(f"{what}: arXiv's answer is not the Atom feed it should be") from None
    if root.tag != ATOM + "feed":
        raise HubError(f"{what}: arXiv's answer is not the Atom feed it should be")
    out = []
    for entry in root.iter(ATOM + "entry"):
        found = _entry(entry)
        if found is not None:
            out.append(found)
    return out


def _entry(entry: ET.Element) -> Found | None:
    match = _ABS.match((entry.findtext(ATOM + "id") or "").strip())
    if match is None:  # an error entry ("http://arxiv.org/api/errors#...")
        return None
    title = text(entry.findtext(ATOM + "title"))
    if not title:
        return None
    links = [link.get("href", "") for link in entry.iter(ATOM + "link")
             if link.get("rel") == "alternate"]
    published = (entry.findtext(ATOM + "published") or "").strip()[:10]
    doi = text(entry.findtext(ARXIV + "doi")) or None
    found = Found(
        source="arxiv", title=title, abstract=text(entry.findtext(ATOM + "summary")),
        authors=[text(a.findtext(ATOM + "name")) for a in entry.iter(ATOM + "author")],
        published=published if re.fullmatch(r"\d{4}-\d{2}-\d{2}", published) else None,
        arxiv_id=match["id"], version=int(match["v"]) if match["v"] else None,
        doi=doi.split()[0] if doi else None,
        url=text(links[0]) or None if links else None,
        venue=text(entry.findtext(ARXIV + "journal_ref")) or None,
        categories=[c for c in (text(c.get("term")) for c in entry.iter(ATOM + "category"))
                    if c])
    return checked(found)

"""Crossref's REST API for a DOI: ``api.crossref.org/works/DOI`` (JSON, no key).

The answer's ``message`` gives the title, the authors in order (``given`` and
``family``, or an organisation's ``name``), the abstract (JATS XML: its tags are
dropped), the date it was issued, the journal or proceedings, the DOI and its URL.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import quote

from paperdesk.core.hub.found import Found, checked, text
from paperdesk.core.hub.hub import HubError
from paperdesk.core.hub.service import CROSSREF, Service
from paperdesk.core.model.jobs import CancelFlag

MAX_VALUES = 200_000  # separators and containers in one answer, as the Hub's reader counts
_TAGS = re.compile(r"<[^>]{0,400}>")


def lookup(doi: str, cancel: CancelFlag | None = None,
           service: Service = CROSSREF) -> Found | None:
    """What Crossref says of ``doi``; None when it does not know it."""
    what = f"doi:{doi}"
    answer = service.get("/works/" + quote(doi, safe="/:;()"), None, what, cancel)
    if answer is None:
        return None
    body = answer.body
    if body.count(b",") + body.count(b"{") + body.count(b"[") > MAX_VALUES:
        raise HubError(f"{what}: Crossref's answer holds too many values; not read")
    try:
        data = json.loads(body.decode("utf-8", "replace"))
    except (ValueError, RecursionError):
        raise HubError(f"{what}: Crossref's answer is not the JSON it should be") from None
    message = data.get("message") if isinstance(data, dict) else None
    if not isinstance(message, dict):
        raise HubError(f"{what}: Crossref's answer is not the JSON it should be")
    return work(message, doi)


def work(message: dict[str, Any], asked: str) -> Found | None:
    """One ``message`` as a Found; None without a title; HubError for another DOI's."""
    doi = text(message.get("DOI")) or asked
    if doi.lower() != asked.lower():
        raise HubError(f"doi:{asked}: Crossref answered with the record of "
                       f"{doi[:60]!r}; not taken")
    title = _first(message.get("title"))
    if not title:
        return None
    found = Found(
        source="crossref", title=title,
        abstract=text(_TAGS.sub(" ", message["abstract"]))
        if isinstance(message.get("abstract"), str) else "",
        authors=[_author(a) for a in _list(message.get("author"))],
        published=_date(message), year=_year(message), doi=doi,
        url=text(message.get("URL")) or None,
        venue=_first(message.get("container-title")) or None)
    return checked(found)


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _first(value: Any) -> str:
    items = [text(v) for v in _list(value)] if isinstance(value, list) else [text(value)]
    return next((v for v in items if v), "")


def _author(value: Any) -> str:
    if not isinstance(value, dict):
        return ""
    family, given = text(value.get("family")), text(value.get("given"))
    if family:
        return f"{given} {family}".strip()
    return text(value.get("name"))


_DATES = ("published-print", "published-online", "issued", "published")


def _parts(message: dict[str, Any]) -> list[list[int]]:
    """The date-parts Crossref gives, most telling first (print, online, issued)."""
    out = []
    for name in _DATES:
        parts = message.get(name)
        dates = parts.get("date-parts") if isinstance(parts, dict) else None
        first = dates[0] if isinstance(dates, list) and dates else None
        if isinstance(first, list) and first and all(
                isinstance(p, int) and not isinstance(p, bool) for p in first):
            out.append(first)
    return out


def _date(message: dict[str, Any]) -> str | None:
    """The full date when Crossref gives one (a year alone is not a date)."""
    for first in _parts(message):
        if len(first) >= 3:
            year, month, day = first[:3]
            if 1000 <= year <= 9999 and 1 <= month <= 12 and 1 <= day <= 31:
                return f"{year:04d}-{month:02d}-{day:02d}"
    return None


def _year(message: dict[str, Any]) -> int | None:
    years = [first[0] for first in _parts(message) if 1000 <= first[0] <= 9999]
    return years[0] if years else None

"""Where a preprint was published, asked of DBLP and Semantic Scholar (JSON, no key).

- DBLP: ``GET /search/publ/api?q=TITLE&format=json&h=10``: ``result.hits.hit[].info``
  with ``title``, ``venue``, ``year``, ``pages``, ``volume``, ``doi``, ``key`` and
  ``type`` ("Conference and Workshop Papers", "Journal Articles"; a preprint is
  "Informal and Other Publications", venue "CoRR": not a published version). A hit
  counts only when its title is the paper's (letters and digits, case aside).
- Semantic Scholar: ``GET /graph/v1/paper/arXiv:ID?fields=...``: ``venue``, ``year``,
  ``externalIds`` (``ArXiv``, ``DOI``, ``DBLP``), ``publicationVenue`` (``name``,
  ``type``: conference, journal), ``journal`` (``name``, ``pages``, ``volume``),
  ``publicationTypes``. A venue that is arXiv itself is no published version.

Both through ``service.Service``: one request at a time per service, spaced (DBLP
publishes no number and asks for restraint: one a second; Semantic Scholar's shared
pool for callers without a key is 100 requests in 5 minutes: one every 3 s),
``Retry-After`` honoured, a deadline and a size cap per answer, one ``HubError`` line
per failure. Base URLs: ``PAPERDESK_DBLP_API``, ``PAPERDESK_S2_API``.

What an answer gives is checked: a venue name or pages holding TeX (a backslash,
braces, ``$``, ``^^``) or over 300 characters is refused with one line, never taken;
the DOI is held to its grammar. The two services' answers for the same publication (the
same DBLP key, or the same venue and year) are one candidate; two different ones are
two candidates, which the user chooses between (``published_versions``).
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from typing import Any, TypeVar
from urllib.parse import quote

from paperdesk.core.hub.found import text
from paperdesk.core.hub.hub import HubError
from paperdesk.core.hub.service import Service
from paperdesk.core.model import identifiers
from paperdesk.core.model.jobs import CancelFlag

DBLP = Service("DBLP", "PAPERDESK_DBLP_API", "https://dblp.org", spacing=1.0, timeout=20.0,
               max_bytes=2 * 2**20, accept="application/json")
S2 = Service("Semantic Scholar", "PAPERDESK_S2_API", "https://api.semanticscholar.org",
             spacing=3.0, timeout=20.0, max_bytes=2 * 2**20, accept="application/json")
S2_FIELDS = "title,venue,year,externalIds,publicationVenue,publicationTypes,journal"
MAX_VALUES = 50_000  # separators and containers in one answer
MAX_TEXT = 300  # characters of a venue name or pages
_TEX = re.compile(r"[\\{}$]|\^\^")
_PREPRINT_VENUES = {"arxiv", "arxivorg", "corr", "arxivpreprint", "biorxiv", "medrxiv"}
_T = TypeVar("_T", dict, list)


@dataclass(frozen=True)
class Venue:
    """One candidate published version, as ``published_table`` records it."""

    entry_type: str  # inproceedings or article
    venue: str  # the proceedings' or journal's name
    year: int | None
    pages: str | None
    volume: str | None
    doi: str | None
    source: str  # dblp, s2, or dblp+s2
    dblp_key: str | None = None

    def record(self) -> dict[str, Any]:
        fields = asdict(self)
        fields.pop("dblp_key")
        return fields


def letters(value: str) -> str:
    return re.sub(r"[^0-9a-z]", "", value.lower())


def _json(answer: Any, service: Service, what: str) -> Any:
    body = answer.body
    if body.count(b",") + body.count(b"{") + body.count(b"[") > MAX_VALUES:
        raise HubError(f"{what}: {service.name}'s answer holds too many values; not read")
    try:
        return json.loads(body.decode("utf-8", "replace"))
    except (ValueError, RecursionError):
        raise HubError(f"{what}: {service.name}'s answer is not the JSON it should be "
                       "(a web page?); nothing taken") from None


def _clean(value: Any, what: str, service: str, name: str, problems: list[str]) -> str | None:
    """A venue name or pages as one line; None (and a line in ``problems``) when it holds
    TeX or is too long."""
    if isinstance(value, int) and name != "venue":
        value = str(value)
    if isinstance(value, list):  # DBLP gives a list for a joint venue
        value = value[0] if value else ""
    found = text(value)
    if not found:
        return None
    if _TEX.search(found) or len(found) > MAX_TEXT:
        problems.append(f"{what}: {service}'s {name} {found[:60]!r}… holds TeX or is too "
                        "long; not taken" if len(found) > 60 else
                        f"{what}: {service}'s {name} {found!r} holds TeX; not taken")
        return None
    return found


def _year(value: Any) -> int | None:
    try:
        year = int(str(value)[:4])
    except ValueError:
        return None
    return year if 1900 <= year <= 2200 else None


def _doi(value: Any) -> str | None:
    found = text(value)
    return found if found and identifiers.valid("doi", found) else None


def dblp(title: str, what: str, problems: list[str], cancel: CancelFlag | None = None,
         service: Service = DBLP) -> list[Venue]:
    """DBLP's published versions of the paper titled ``title``."""
    answer = service.get("/search/publ/api", {"q": title[:300], "format": "json", "h": 10},
                         what, cancel)
    if answer is None:
        return []
    data = _json(answer, service, what)
    result = data.get("result") if isinstance(data, dict) else None
    hits = result.get("hits") if isinstance(result, dict) else None
    if not isinstance(hits, dict):
        raise HubError(f"{what}: DBLP's answer is not the JSON it should be; nothing taken")
    hit = hits.get("hit") or []
    out = []
    for item in hit if isinstance(hit, list) else [hit]:
        info = item.get("info") if isinstance(item, dict) else None
        if not isinstance(info, dict) or letters(text(info.get("title"))) != letters(title):
            continue
        kind = {"Conference and Workshop Papers": "inproceedings",
                "Journal Articles": "article"}.get(text(info.get("type")))
        venue = _clean(info.get("venue"), what, "DBLP", "venue", problems)
        if kind is None or venue is None or letters(venue) in _PREPRINT_VENUES:
            continue
        out.append(Venue(kind, venue, _year(info.get("year")),
                         _clean(info.get("pages"), what, "DBLP", "pages", problems),
                         _clean(info.get("volume"), what, "DBLP", "volume", problems),
                         _doi(info.get("doi")), "dblp", text(info.get("key")) or None))
    return out


def semantic_scholar(arxiv_id: str, what: str, problems: list[str],
                     cancel: CancelFlag | None = None, service: Service = S2) -> list[Venue]:
    """Semantic Scholar's published version of arXiv paper ``arxiv_id`` (none or one)."""
    answer = service.get("/graph/v1/paper/arXiv:" + quote(arxiv_id, safe="./"),
                         {"fields": S2_FIELDS}, what, cancel)
    if answer is None:
        return []
    data = _json(answer, service, what)
    if not isinstance(data, dict):
        raise HubError(f"{what}: Semantic Scholar's answer is not the JSON it should be")
    ids = _part(data, "externalIds", dict)
    said = text(ids.get("ArXiv"))
    if said and said != arxiv_id:
        raise HubError(f"{what}: Semantic Scholar answered with arXiv:{said[:40]}; not taken")
    place = _part(data, "publicationVenue", dict)
    journal = _part(data, "journal", dict)
    venue = _clean(place.get("name") or data.get("venue"), what, "Semantic Scholar",
                   "venue", problems)
    if venue is None or letters(venue) in _PREPRINT_VENUES:
        return []
    types = _part(data, "publicationTypes", list)
    kind = {"conference": "inproceedings", "journal": "article"}.get(text(place.get("type")))
    if kind is None:
        kind = "inproceedings" if "Conference" in types else (
            "article" if "JournalArticle" in types else None)
    if kind is None:
        return []
    volume = _clean(journal.get("volume"), what, "Semantic Scholar", "volume", problems)
    return [Venue(kind, venue, _year(data.get("year")),
                  _clean(journal.get("pages"), what, "Semantic Scholar", "pages", problems),
                  None if volume and volume.startswith("abs/") else volume,
                  _doi(ids.get("DOI")), "s2", text(ids.get("DBLP")) or None)]


def _part(data: dict[str, Any], name: str, kind: type[_T]) -> _T:
    """``data[name]`` if it is a ``kind`` (an object, a list), else an empty one."""
    value = data.get(name)
    return value if isinstance(value, kind) else kind()


def merged(found: list[Venue]) -> list[Venue]:
    """One candidate a publication: the same DBLP key, or the same kind, venue and year
    (DBLP's pages and DOI, Semantic Scholar's fuller venue name)."""
    out: list[Venue] = []
    for venue in found:
        same = next((i for i, o in enumerate(out) if o.source != venue.source and (
            (o.dblp_key and o.dblp_key == venue.dblp_key)
            or (o.entry_type, letters(o.venue), o.year)
            == (venue.entry_type, letters(venue.venue), venue.year))), None)
        if same is None:
            out.append(venue)
            continue
        first, second = (out[same], venue) if out[same].source == "dblp" else (venue,
                                                                               out[same])
        out[same] = Venue(first.entry_type, second.venue or first.venue,
                          first.year or second.year, first.pages or second.pages,
                          first.volume or second.volume, first.doi or second.doi,
                          "dblp+s2", first.dblp_key or second.dblp_key)
    return out

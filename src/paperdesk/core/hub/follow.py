"""Following arXiv categories and authors: their new papers come with Today, beside the
Hub's daily papers.

``paperdesk follow cs.CL cs.LG`` and ``follow --author "Ada Lovelace"`` keep what is
followed in the library (``follows``). Each Today (or ``follow --now``) asks arXiv's API
for the newest submissions of each (``cat:cs.CL``, ``au:"Ada Lovelace"``, by submission
date, one request each, arXiv's pace), keeps those newer than the newest taken before
(the first time, those of the last ``FIRST_DAYS`` days), and imports them as a digest
of their own (``arxiv-cs.CL-DAY.txt``), through the digest importer: a paper the
library already has is one more sighting of it, never a second paper. The papers are
then completed from arXiv's entries (authors in order, the arXiv id), marked as arXiv's.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from paperdesk.core.bibtex.citekey import refresh
from paperdesk.core.db import changes as ch
from paperdesk.core.db import follows_table
from paperdesk.core.hub import arxiv_api
from paperdesk.core.hub.daily import digest_text, matched
from paperdesk.core.hub.enrich import apply
from paperdesk.core.hub.found import Found
from paperdesk.core.hub.hub import HubError, HubPaper, HubUnavailable
from paperdesk.core.importing.digest_import import import_digest
from paperdesk.core.model.clock import now
from paperdesk.core.model.errors import PaperDeskError
from paperdesk.core.model.jobs import CancelFlag, check_cancel

if TYPE_CHECKING:
    from paperdesk.core.library import Library

CATEGORY, AUTHOR = "category", "author"
FIRST_DAYS = 7      # how far back the first Today after a follow looks
MAX_RESULTS = 100   # submissions asked for each followed category or author
MAX_FOLLOWS = 50
# arXiv's category names: cs.CL, math.GT, hep-th, astro-ph.CO, q-bio.NC, stat.ML
_CATEGORY = re.compile(r"[a-z]{2,8}(?:-[a-z]{2,8})?(?:\.[A-Za-z]{2,8})?")
_AUTHOR = re.compile(r"[^\W\d_](?:[^\W\d_]|[ .'\-])*[^\W\d_.]?\.?")


class FollowError(PaperDeskError):
    """A category or an author that cannot be followed."""


@dataclass
class FollowReport:
    kind: str
    value: str
    status: str = "nothing new"  # imported, nothing new, failed
    papers: int = 0
    new_papers: int = 0
    digest_id: int | None = None
    error: str | None = None
    warnings: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return dict(self.__dict__)


def checked(kind: str, value: str) -> str:
    """``value`` as it is kept, or FollowError (one line)."""
    value = " ".join(value.split())
    if kind == CATEGORY and _CATEGORY.fullmatch(value):
        return value
    if kind == AUTHOR and 2 <= len(value) <= 100 and _AUTHOR.fullmatch(value):
        return value
    what = ("an arXiv category (cs.CL, math.GT, hep-th, astro-ph.CO)" if kind == CATEGORY
            else "an author's name (letters, spaces, . ' -)")
    shown = value if len(value) <= 60 else value[:57] + "..."
    raise FollowError(f"{shown!r} is not {what}")


def follow(lib: Library, kind: str, values: list[str]) -> list[str]:
    """Follow ``values`` (all of them or, on one bad value, none); those newly followed."""
    wanted = [checked(kind, v) for v in values]
    if len(follows_table.listed(lib.db)) + len(wanted) > MAX_FOLLOWS:
        raise FollowError(f"follow at most {MAX_FOLLOWS} categories and authors")
    with lib.write("Follow", [ch.DIGESTS]):
        stamp = now()
        return [v for v in wanted if follows_table.add(lib.db, kind, v, stamp)]


def unfollow(lib: Library, kind: str, values: list[str]) -> list[str]:
    with lib.write("Unfollow", [ch.DIGESTS]):
        return [v for v in (" ".join(v.split()) for v in values)
                if follows_table.remove(lib.db, kind, v)]


def followed(lib: Library) -> list[dict[str, object]]:
    return follows_table.listed(lib.db)


def _query(kind: str, value: str) -> str:
    return f"cat:{value}" if kind == CATEGORY else f'au:"{value}"'


def _as_record(found: Found) -> HubPaper:
    return HubPaper(arxiv_id=found.arxiv_id or "", title=found.title, abstract=found.abstract,
                    authors=list(found.authors), published=found.published, upvotes=None,
                    github=None, project_page=None)


def _name(lib: Library, kind: str, value: str, day: dt.date) -> str:
    stem = f"arxiv-{value if kind == CATEGORY else 'au-' + value.replace(' ', '_')}-{day}"
    taken = {r[0] for r in lib.db.execute("SELECT name FROM digests WHERE name GLOB ?",
                                          [stem + "*.txt"])}
    n = 0
    while (name := stem + (f"+{n}" if n else "") + ".txt") in taken:
        n += 1
    return name


def fetch_one(lib: Library, row: dict[str, object], today: dt.date,
              cancel: CancelFlag | None = None) -> FollowReport:
    kind, value = str(row["kind"]), str(row["value"])
    report = FollowReport(kind, value)
    listed = arxiv_api.listing(_query(kind, value), f"arXiv {_query(kind, value)}",
                               MAX_RESULTS, cancel)
    since = str(row["newest"] or (today - dt.timedelta(days=FIRST_DAYS)).isoformat())
    fresh = [f for f in listed if f.arxiv_id and f.published and f.published > since]
    if row["newest"] is None:  # the first time: the last days, not only what is newer
        fresh = [f for f in listed if f.arxiv_id and f.published and f.published >= since]
    if not fresh:
        return report
    records = [_as_record(f) for f in fresh]
    imported = import_digest(lib, Path(_name(lib, kind, value, today)),
                             digest_text(today, records).encode("utf-8"), cancel=cancel)
    report.warnings += imported.warnings
    report.papers, report.new_papers = imported.entries, imported.new_papers
    report.digest_id = imported.digest_id
    if imported.digest_id is None:
        report.status, report.error = "failed", imported.error
        return report
    report.status = "imported"
    pairs = matched(lib, imported.digest_id, records, report.warnings)
    with lib.write(f"Complete the new papers of {value}", [ch.PAPERS]) as w:
        stamp = now()
        changed = [pid for pid, record in pairs if apply(lib.db, pid, record, stamp, "arxiv")]
        refresh(lib.db, changed)
        follows_table.set_newest(lib.db, kind, value, max(f.published or "" for f in fresh))
        w.paper_ids = set(changed)
    return report


def fetch_follows(lib: Library, today: dt.date | None = None,
                  cancel: CancelFlag | None = None) -> list[FollowReport]:
    """Each followed category's and author's new papers, imported; arXiv unreachable
    stops the rest (each says so)."""
    today = today or dt.date.today()
    reports: list[FollowReport] = []
    for row in follows_table.listed(lib.db):
        check_cancel(cancel)
        try:
            reports.append(fetch_one(lib, row, today, cancel))
        except HubError as exc:
            reports.append(FollowReport(str(row["kind"]), str(row["value"]), "failed",
                                        error=str(exc)))
            if isinstance(exc, HubUnavailable):
                break
    return reports


class Follows:
    """``lib.follows``: what Today follows on arXiv, and fetching their new papers."""

    def __init__(self, lib: Library) -> None:
        self.lib = lib

    def add(self, kind: str, values: list[str]) -> list[str]:
        return follow(self.lib, kind, values)

    def remove(self, kind: str, values: list[str]) -> list[str]:
        return unfollow(self.lib, kind, values)

    def listed(self) -> list[dict[str, object]]:
        return followed(self.lib)

    def fetch(self, cancel: CancelFlag | None = None) -> list[FollowReport]:
        return fetch_follows(self.lib, cancel=cancel)

"""``paperdesk fetch --date``: the Hub's daily papers of a day, imported as a digest.

Each day's list (``/api/daily_papers?date=``) is written out as the text of a
saved "Daily Papers" page (header, then title, abstract and the metadata block
of every paper, with the dates' years printed) and imported through the digest
importer, so its papers get the same sightings and the same duplicate rules as
a digest saved by hand. The papers are then completed from their records, as
``enrich`` would. A day already fetched is not fetched again: re-fetching it
changes nothing.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from paperdesk.core.areas.citekey import refresh
from paperdesk.core.db import changes as ch
from paperdesk.core.formats.digest_import import import_digest
from paperdesk.core.formats.enrich import apply, record_problems
from paperdesk.core.formats.file_report import ALREADY, FileReport
from paperdesk.core.formats.hub import Hub, HubError, HubPaper, HubUnavailable
from paperdesk.core.model import identifiers
from paperdesk.core.model.clock import now
from paperdesk.core.model.digest import MARKER
from paperdesk.core.model.errors import PaperDeskError
from paperdesk.core.model.jobs import CancelFlag, Progress, check_cancel, no_progress

if TYPE_CHECKING:
    from paperdesk.core.library import Library

MAX_DAYS = 366
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


class FetchError(PaperDeskError):
    """The days asked for cannot be fetched (a range backwards or too long)."""


@dataclass
class DayReport:
    day: str
    status: str                 # imported, already imported, no papers, failed
    papers: int = 0
    new_papers: int = 0
    completed: int = 0
    error: str | None = None
    warnings: list[str] = field(default_factory=list)
    digest_id: int | None = None

    def to_json(self) -> dict[str, object]:
        return dict(self.__dict__)


def digest_name(day: dt.date) -> str:
    return f"hf-daily-papers-{day.isoformat()}.txt"


def _date_line(published: str | None, upvotes: int | None) -> str | None:
    if not published:
        return None
    day = dt.date.fromisoformat(published)
    text = f"{_MONTHS[day.month - 1]} {day.day}, {day.year}"
    return f"{text} {upvotes}" if upvotes else text


def digest_text(day: dt.date, papers: list[HubPaper]) -> str:
    """The day's list as the text of a saved Daily Papers page."""
    blocks = ["new", "Get trending papers in your email inbox!", "Subscribe", "Daily Papers",
              MARKER, f"{_MONTHS[day.month - 1]} {day.day}, {day.year}"]
    for paper in papers:
        blocks.append(paper.title)
        if paper.abstract:
            blocks.append(paper.abstract)
        when = _date_line(paper.published, paper.upvotes)
        if when:
            who = (f"{paper.organization_handle} {paper.organization}"
                   if paper.organization_handle and paper.organization
                   else f"  • {len(paper.authors)} authors")
            blocks.append(f"{who}\n·\n{when}")
    return "\n\n".join(blocks) + "\n"


def fetch_day(lib: Library, day: dt.date, hub: Hub, cancel: CancelFlag | None = None
              ) -> DayReport:
    report = DayReport(day.isoformat(), "failed")
    name = digest_name(day)
    if lib.db.execute("SELECT 1 FROM digests WHERE name = ?", [name]).fetchone():
        report.status = ALREADY
        report.warnings = [f"{day.isoformat()}: already fetched; nothing changed"]
        return report
    listed = [p for p in hub.daily(day) if p.title]
    if not listed:
        report.status = "no papers"
        return report
    # The list's records lack the links: each paper's own record has them.
    records: list[HubPaper] = []
    for paper in listed:
        check_cancel(cancel)
        try:
            records.append((hub.paper(paper.arxiv_id) if identifiers.valid(
                "arxiv_id", paper.arxiv_id) else None) or paper)
        except HubUnavailable:
            raise
        except HubError as exc:  # the list's record will do, without links
            report.warnings.append(f"{paper.arxiv_id}: {exc}")
            records.append(paper)
    for paper, record in zip(listed, records, strict=True):
        record.title, record.abstract = paper.title, paper.abstract or record.abstract
        report.warnings += [f"{paper.title[:60]!r}: {why}" for why in record_problems(record)]
        if paper.upvotes is not None:
            record.upvotes = paper.upvotes
    data = digest_text(day, records).encode("utf-8")
    imported: FileReport = import_digest(lib, Path(name), data, cancel=cancel)
    report.status = imported.status
    report.warnings += imported.warnings
    report.papers, report.new_papers = imported.entries, imported.new_papers
    report.digest_id = imported.digest_id
    if imported.digest_id is None:
        report.error = imported.error
        return report
    positions = dict(lib.db.execute("SELECT position, paper_id FROM sightings "
                                    "WHERE digest_id = ?", [imported.digest_id]).fetchall())
    with lib.write(f"Complete the daily papers of {day.isoformat()}", [ch.PAPERS]) as w:
        stamp = now()
        changed = [positions[n] for n, record in enumerate(records)
                   if n in positions and apply(lib.db, positions[n], record, stamp)]
        refresh(lib.db, changed)
        w.paper_ids = set(changed)
    report.completed = len(changed)
    return report


def fetch_days(lib: Library, first: dt.date, last: dt.date, *, hub: Hub | None = None,
               progress: Progress = no_progress,
               cancel: CancelFlag | None = None) -> list[DayReport]:
    """Fetch each day from ``first`` to ``last``; a day that fails does not stop the rest,
    unless the Hub cannot be reached at all."""
    if last < first:
        raise FetchError(f"--to {last.isoformat()} is before {first.isoformat()}")
    days = (last - first).days + 1
    if days > MAX_DAYS:
        raise FetchError(f"{days} days asked for; fetch at most {MAX_DAYS} at a time")
    hub = hub or Hub()
    reports: list[DayReport] = []
    for n in range(days):
        day = first + dt.timedelta(days=n)
        check_cancel(cancel)
        progress(n / days, f"Fetching the daily papers of {day.isoformat()}")
        try:
            reports.append(fetch_day(lib, day, hub, cancel))
        except HubError as exc:
            reports.append(DayReport(day.isoformat(), "failed", error=str(exc)))
            if isinstance(exc, HubUnavailable):
                break
    progress(1.0, "Done")
    return reports

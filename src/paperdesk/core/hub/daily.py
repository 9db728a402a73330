"""``paperdesk fetch --date``: the Hub's daily papers of a day, imported as a digest.

Each day's list (``/api/daily_papers?date=``) is written out as the text of a
saved "Daily Papers" page (header, then title, abstract and the metadata block
of every paper, with the dates' years printed) and imported through the digest
importer, so its papers get the same sightings and the same duplicate rules as
a digest saved by hand. The papers are then completed from their records, as
``enrich`` would.

The Hub's page of a day grows through the day (and after it, in the hours its time
zone is behind). A day fetched before is asked again when it may still grow (today,
yesterday, and any day every read of which was made before its end: ``may_grow``), or
whenever ``fetch --date`` names it; only the papers not in that day's digests yet are
imported, as one more digest of the day (``hf-daily-papers-DAY+N.txt``). "Nothing new"
is said only after the Hub answered.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from paperdesk.core.bibtex.citekey import refresh
from paperdesk.core.db import changes as ch
from paperdesk.core.hub.enrich import apply, record_problems
from paperdesk.core.hub.hub import Hub, HubError, HubPaper, HubUnavailable
from paperdesk.core.importing.digest_import import import_digest
from paperdesk.core.importing.file_report import ALREADY, FileReport
from paperdesk.core.model import identifiers
from paperdesk.core.model.clock import now
from paperdesk.core.model.digest import MARKER
from paperdesk.core.model.errors import PaperDeskError
from paperdesk.core.model.jobs import CancelFlag, Progress, check_cancel, no_progress
from paperdesk.core.model.text import title_key

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
    asked: bool = False  # the Hub was asked for the day (and answered, when not failed)

    def to_json(self) -> dict[str, object]:
        return dict(self.__dict__)


def digest_name(day: dt.date, read: int = 0) -> str:
    """The digest of the day's first read, or of its ``read``-th read after that."""
    return f"hf-daily-papers-{day.isoformat()}" + (f"+{read}" if read else "") + ".txt"


def reads(lib: Library, day: dt.date) -> list[tuple[int, str]]:
    """(digest id, imported at) of each read of ``day`` so far, the first first."""
    stem = f"hf-daily-papers-{day.isoformat()}"
    return [(r[0], r[1]) for r in lib.db.execute(
        "SELECT id, imported_at FROM digests WHERE name = ? OR name GLOB ? ORDER BY id",
        [stem + ".txt", stem + "+[0-9]*.txt"])]


def may_grow(day: dt.date, read_at: list[str], today: dt.date) -> bool:
    """Can the Hub's page of ``day`` hold papers its reads ``read_at`` did not see?
    Today and yesterday can; an older day only when every read was made on or before
    the day itself (the page was still being filled)."""
    if day >= today - dt.timedelta(days=1):
        return True
    return all(at[:10] <= day.isoformat() for at in read_at)


def _unseen(lib: Library, digests: list[int], listed: list[HubPaper]) -> list[HubPaper]:
    """The papers of the Hub's list that no read of the day had (by arXiv id or title)."""
    if not digests:
        return listed
    marks = ",".join("?" * len(digests))
    seen_ids, seen_titles = set(), set()
    for arxiv_id, raw_title in lib.db.execute(
            "SELECT p.arxiv_id, s.raw_title FROM sightings s JOIN papers p ON p.id = "
            f"s.paper_id WHERE s.digest_id IN ({marks})", digests):
        seen_ids.add(arxiv_id)
        seen_titles.add(title_key(raw_title or ""))
    return [p for p in listed if p.arxiv_id not in seen_ids
            and title_key(p.title) not in seen_titles]


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


def _records(hub: Hub, listed: list[HubPaper], report: DayReport,
             cancel: CancelFlag | None) -> list[HubPaper]:
    """Each listed paper's own record (the list's lack the links), asked for by its id;
    the list's record where that fails. Titles, abstracts and upvotes are the list's."""
    records: list[HubPaper] = []
    for paper in listed:
        check_cancel(cancel)
        try:
            asked = identifiers.valid("arxiv_id", paper.arxiv_id)
            record = (hub.paper(paper.arxiv_id) if asked else None) or paper
        except HubUnavailable:
            raise
        except HubError as exc:  # the list's record will do, without links
            report.warnings.append(str(exc))
            record = paper
        record.title, record.abstract = paper.title, paper.abstract or record.abstract
        if paper.upvotes is not None:
            record.upvotes = paper.upvotes
        report.warnings += [f"{paper.arxiv_id}: {p}" for p in
                            dict.fromkeys(paper.problems + record.problems)]
        report.warnings += [f"{paper.title[:60]!r}: {why}" for why in record_problems(record)]
        records.append(record)
    return records


def matched(lib: Library, digest_id: int, records: list[HubPaper],
            warnings: list[str]) -> list[tuple[int, HubPaper]]:
    """(paper id, record) for each paper the saved page gave: found by its title among
    the records (the page has no ids), and never one whose arXiv id is another's."""
    by_title: dict[str, list[HubPaper]] = {}
    for record in records:
        by_title.setdefault(title_key(record.title), []).append(record)
    out = []
    for pid, raw_title, arxiv_id in lib.db.execute(
            "SELECT s.paper_id, s.raw_title, p.arxiv_id FROM sightings s JOIN papers p "
            "ON p.id = s.paper_id WHERE s.digest_id = ? ORDER BY s.position", [digest_id]):
        found = by_title.get(title_key(raw_title or ""), [])
        if len(found) != 1:
            warnings.append(f"{(raw_title or '')[:60]!r}: " + (
                "not a paper of the Hub's list; not completed" if not found else
                "more than one paper of the Hub's list has this title; not completed"))
        elif arxiv_id and arxiv_id != found[0].arxiv_id:
            warnings.append(f"{(raw_title or '')[:60]!r}: already has arXiv id {arxiv_id}, "
                                   f"the Hub's record is {found[0].arxiv_id}; not completed")
        else:
            out.append((pid, found[0]))
    return out


def fetch_day(lib: Library, day: dt.date, hub: Hub, cancel: CancelFlag | None = None,
              *, again: bool = True, today: dt.date | None = None) -> DayReport:
    """Fetch ``day``: a day fetched before is asked again when ``again`` (a day named
    on purpose) or when its page may still grow (``may_grow``)."""
    report = DayReport(day.isoformat(), "failed")
    before = reads(lib, day)
    if before and not again and not may_grow(day, [at for _, at in before],
                                             today or dt.date.today()):
        report.status = ALREADY
        report.warnings = [f"{day.isoformat()}: already fetched after the day ended; "
                           "not asked again (fetch --date asks)"]
        return report
    listed, report.warnings = hub.daily(day)
    report.asked = True
    listed = _unseen(lib, [d for d, _ in before], [p for p in listed if p.title])
    if not listed:
        report.status = ALREADY if before else "no papers"
        if before:
            report.warnings.append(f"{day.isoformat()}: already fetched; the Hub lists "
                                   "nothing new for it")
        return report
    name = digest_name(day, len(before))
    records = _records(hub, listed, report, cancel)
    data = digest_text(day, records).encode("utf-8")
    if before:
        report.warnings.append(f"{day.isoformat()}: fetched again: {len(records)} new on "
                               "the Hub since the last read")
    imported: FileReport = import_digest(lib, Path(name), data, cancel=cancel)
    report.status = imported.status
    report.warnings += imported.warnings
    report.papers, report.new_papers = imported.entries, imported.new_papers
    report.digest_id = imported.digest_id
    if imported.digest_id is None:
        report.error = imported.error
        return report
    pairs = matched(lib, imported.digest_id, records, report.warnings)
    with lib.write(f"Complete the daily papers of {day.isoformat()}", [ch.PAPERS]) as w:
        stamp = now()
        changed = [pid for pid, record in pairs if apply(lib.db, pid, record, stamp)]
        refresh(lib.db, changed)
        w.paper_ids = set(changed)
    report.completed = len(changed)
    return report


def fetch_days(lib: Library, first: dt.date, last: dt.date, *, hub: Hub | None = None,
               progress: Progress = no_progress, cancel: CancelFlag | None = None,
               again: bool = True, newest_first: bool = False,
               each: Callable[[DayReport], None] | None = None,
               today: dt.date | None = None) -> list[DayReport]:
    """Fetch each day from ``first`` to ``last`` (``newest_first``: from ``last`` back;
    days fetched before: ``fetch_day``'s ``again`` and ``today``), telling ``each`` of
    every day as it is in; a day that fails does not stop the rest, unless the Hub
    cannot be reached at all."""
    if last < first:
        raise FetchError(f"--to {last.isoformat()} is before {first.isoformat()}")
    days = (last - first).days + 1
    if days > MAX_DAYS:
        raise FetchError(f"{days} days asked for; fetch at most {MAX_DAYS} at a time")
    hub = hub or Hub(cancel=cancel)
    if hub.cancel is None:
        hub.cancel = cancel
    reports: list[DayReport] = []
    for n in range(days):
        day = last - dt.timedelta(days=n) if newest_first else first + dt.timedelta(days=n)
        check_cancel(cancel)
        progress(n / days, f"Fetching the daily papers of {day.isoformat()}")
        try:
            reports.append(fetch_day(lib, day, hub, cancel, again=again, today=today))
            if each is not None:
                each(reports[-1])
        except HubError as exc:
            reports.append(DayReport(day.isoformat(), "failed", error=str(exc),
                                     asked=True))
            if isinstance(exc, HubUnavailable):
                break
    progress(1.0, "Done")
    return reports

"""Today: the Hub's daily papers since the last fetch, completed, and the papers among
them that are new to this library, the fastest-rising first.

``fetch_today`` fetches every day from the day after the newest day fetched
(today alone on a first run) to today through ``daily.fetch_days``, and asks
again for each day fetched before whose page may still grow (today, yesterday, and
any day read only before its end: ``daily.may_grow``), taking only its new papers; completes
the new papers that still lack an arXiv id or authors through ``enrich``, and
returns the ids of the papers new to the library in these days, ordered by
momentum (upvotes gained per day across digests), then upvotes, followed by the
rest of the backlog (``backlog``): every paper with no triage decision yet (unread,
unrated, not set aside as seen), whatever brought it (Today, fetch, a digest, ``add``),
the newest day first. When the Hub cannot be reached it says so in one line
(``offline``) and returns the backlog as it is.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from paperdesk.core.curation import triage
from paperdesk.core.db.database import select_in
from paperdesk.core.hub.daily import MAX_DAYS, DayReport, fetch_days, may_grow
from paperdesk.core.hub.follow import FollowReport, fetch_follows
from paperdesk.core.hub.hub import Hub, HubError
from paperdesk.core.model.text import plural

if TYPE_CHECKING:
    from paperdesk.core.hub.enrich import EnrichResult
    from paperdesk.core.library import Library
    from paperdesk.core.model.jobs import CancelFlag, Progress

_DAILY = "hf-daily-papers-"


@dataclass
class TodayResult:
    first: dt.date
    last: dt.date
    days: list[DayReport] = field(default_factory=list)
    new_ids: list[int] = field(default_factory=list)  # the order to triage them in
    completed: int = 0
    offline: str | None = None  # the one line saying the Hub could not be reached
    fresh: int = 0  # how many of new_ids this Today brought
    follows: list[FollowReport] = field(default_factory=list)  # the followed listings
    per_day: list[tuple[str, int]] = field(default_factory=list)  # the backlog, newest first

    def counts(self) -> str:
        """"18 from 2026-12-01, 40 from 2026-11-30 and 3 more days"."""
        shown = [f"{n} from {day}" for day, n in self.per_day[:3]]
        more = len(self.per_day) - 3
        return ", ".join(shown) + (f" and {more} more day{'s' * (more != 1)}" if more > 0
                                   else "")

    def summary(self) -> str:
        return self._days_summary() + "".join(
            f"; {r.value}: {r.error if r.error else plural(r.new_papers, 'new paper')}"
            for r in self.follows if r.status != "nothing new")

    def _days_summary(self) -> str:
        if self.offline:
            return (f"The Hub could not be reached ({self.offline}): triaging the "
                    f"{len(self.new_ids)} untriaged papers already here")
        span = (self.first.isoformat() if self.first == self.last
                else f"{self.first.isoformat()} to {self.last.isoformat()}")
        papers = sum(r.papers for r in self.days)
        if not any(r.asked for r in self.days):
            return (f"Today: the days to {span} were all read after they ended; "
                    f"triaging the {len(self.new_ids)} untriaged new papers already here")
        if not any(r.digest_id is not None for r in self.days):
            return (f"Today: nothing new on the Hub for {span}: triaging the "
                    f"{len(self.new_ids)} untriaged papers already here")
        rest = len(self.new_ids) - self.fresh
        return (f"Today: fetched {span}: {papers} papers, {self.fresh} new to this library"
                + (f"; {rest} more from before still to triage" if rest > 0 else ""))


def days_to_fetch(lib: Library, today: dt.date) -> tuple[dt.date, dt.date]:
    """From the day after the newest day fetched, or the first fetched day whose page
    may still grow if that is earlier, to ``today`` (at most MAX_DAYS)."""
    read_at: dict[dt.date, list[str]] = {}
    for name, at in lib.db.execute(
            "SELECT name, imported_at FROM digests WHERE name GLOB ? OR name GLOB ?",
            [f"{_DAILY}[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9].txt",
             f"{_DAILY}[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]+[0-9]*.txt"]):
        try:
            day = dt.date.fromisoformat(name[len(_DAILY):len(_DAILY) + 10])
        except ValueError:
            continue
        read_at.setdefault(day, []).append(at)
    first = today
    if read_at:
        first = min(today, max(read_at) + dt.timedelta(days=1))
        growing = [day for day, ats in read_at.items() if day <= today
                   and may_grow(day, ats, today)]
        first = min([first, *growing])
    return max(first, today - dt.timedelta(days=MAX_DAYS - 1)), today


def by_momentum(lib: Library, ids: list[int]) -> list[int]:
    """``ids`` the fastest-rising first: momentum, then upvotes (the Hub's when newer)."""
    rows = select_in(lib.db, "SELECT id, coalesce(momentum, -1), "
                     "max(coalesce(upvotes, 0), coalesce(hub_upvotes, 0)) FROM papers "
                     "WHERE id IN ({marks}) AND deleted_at IS NULL", ids)
    return [r[0] for r in sorted(rows, key=lambda r: (-r[1], -r[2], r[0]))]


# No triage decision yet: in no reading state, without stars, not set aside as seen.
UNTRIAGED = ("p.status = 'unread' AND p.rating = 0 AND p.seen_at IS NULL "
             "AND p.deleted_at IS NULL")


def backlog(lib: Library) -> list[tuple[str, list[int]]]:
    """Every paper nobody decided on yet, by the day it arrived (its first digest's day,
    else the day it was added), the newest day first; in a day the fastest-rising first."""
    rows = lib.db.execute(
        f"""SELECT p.id, coalesce(min(d.digest_date), substr(p.added, 1, 10)) AS day,
                   coalesce(p.momentum, -1), coalesce(p.upvotes, 0)
            FROM papers p LEFT JOIN sightings s ON s.paper_id = p.id
                 LEFT JOIN digests d ON d.id = s.digest_id
            WHERE {UNTRIAGED} GROUP BY p.id""").fetchall()
    days: dict[str, list[tuple[float, int, int]]] = {}
    for pid, day, momentum, votes in rows:
        days.setdefault(day or "", []).append((-momentum, -votes, pid))
    return [(day, [pid for *_, pid in sorted(days[day])])
            for day in sorted(days, reverse=True)]


def _with_backlog(lib: Library, result: TodayResult, fresh: list[int]) -> None:
    """This Today's new papers first (those still untriaged), then the backlog."""
    days = backlog(lib)
    waiting = {pid for _, ids in days for pid in ids}
    first = [pid for pid in fresh if pid in waiting]
    taken = set(first)
    result.new_ids = first + [pid for _, ids in days for pid in ids if pid not in taken]
    result.fresh = len(first)
    result.per_day = [(day, len(ids)) for day, ids in days]


def fetch_today(lib: Library, today: dt.date | None = None, *, hub: Hub | None = None,
                progress: Progress | None = None, cancel: CancelFlag | None = None,
                arrived: Callable[[list[int]], None] | None = None) -> TodayResult:
    """Fetch the days since the last fetch (the newest first), complete the new papers,
    and name them; ``arrived`` hears the papers new to the library of each day as soon
    as that day is in, the fastest-rising first, so that triage can open on them before
    the last day is fetched."""
    today = today or dt.date.today()
    first, last = days_to_fetch(lib, today)
    result = TodayResult(first, last)
    hub = hub or Hub()
    step = progress or (lambda _f, _m: None)
    def each(report: DayReport) -> None:
        if arrived is not None and report.digest_id is not None:
            fresh = triage.digest_papers(lib, [report.digest_id], only_new=True)
            if fresh:
                arrived(by_momentum(lib, fresh))

    result.days = fetch_days(lib, first, last, hub=hub, again=False, newest_first=True,
                             each=each, progress=lambda f, m: step(f * 0.8, m),
                             cancel=cancel, today=today)
    result.follows = fetch_follows(lib, today, cancel)
    failed = [r for r in result.days if r.status == "failed" and r.error]
    followed = [r.digest_id for r in result.follows if r.digest_id is not None]
    if failed and not any(r.status == "imported" for r in result.days) and not followed:
        result.offline = str(failed[-1].error).splitlines()[0]
        _with_backlog(lib, result, [])
        return result
    digests = [r.digest_id for r in result.days if r.digest_id is not None] + followed
    if not digests:  # nothing new on the Hub: the backlog as it is
        _with_backlog(lib, result, [])
        return result
    new_ids = triage.digest_papers(lib, digests, only_new=True)
    if new_ids:
        step(0.8, "Completing the new papers from Hugging Face")
        try:
            changes = lib.enrich(new_ids, hub=hub, cancel=cancel)
            result.completed = len(cast("EnrichResult", changes.result).completed)
        except HubError as exc:  # the fetch is in; completing waits for next time
            result.offline = str(exc).splitlines()[0]
    _with_backlog(lib, result, by_momentum(lib, new_ids))
    step(1.0, "Done")
    return result

"""Today: the Hub's daily papers since the last fetch, completed, and the papers among
them that are new to this library, the fastest-rising first.

``fetch_today`` fetches every day from the day after the newest day fetched
(today alone on a first run) to today through ``daily.fetch_days``, completes
the new papers that still lack an arXiv id or authors through ``enrich``, and
returns the ids of the papers new to the library in these days, ordered by
momentum (upvotes gained per day across digests), then upvotes. When the Hub
cannot be reached it says so in one line (``offline``) and returns what is
already there: the untriaged papers (unread, unrated) new in the newest digests;
so it does when the days were all fetched before.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from paperdesk.core.curation import triage
from paperdesk.core.db.database import select_in
from paperdesk.core.hub.daily import MAX_DAYS, DayReport, fetch_days
from paperdesk.core.hub.hub import Hub, HubError

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

    def summary(self) -> str:
        if self.offline:
            return (f"The Hub could not be reached ({self.offline}): triaging the "
                    f"{len(self.new_ids)} untriaged new papers already here")
        span = (self.first.isoformat() if self.first == self.last
                else f"{self.first.isoformat()} to {self.last.isoformat()}")
        papers = sum(r.papers for r in self.days)
        if not any(r.digest_id is not None for r in self.days):
            return (f"Today: nothing new on the Hub for {span}: triaging the "
                    f"{len(self.new_ids)} untriaged new papers already here")
        return (f"Today: fetched {span}: {papers} papers, {len(self.new_ids)} new to this "
                f"library")


def days_to_fetch(lib: Library, today: dt.date) -> tuple[dt.date, dt.date]:
    """From the day after the newest day fetched to ``today`` (at most MAX_DAYS)."""
    row = lib.db.execute("SELECT max(name) FROM digests WHERE name LIKE ?",
                         [f"{_DAILY}____-__-__.txt"]).fetchone()
    first = today
    if row and row[0]:
        try:
            newest = dt.date.fromisoformat(row[0][len(_DAILY):len(_DAILY) + 10])
        except ValueError:
            newest = today
        first = min(today, newest + dt.timedelta(days=1))
    return max(first, today - dt.timedelta(days=MAX_DAYS - 1)), today


def by_momentum(lib: Library, ids: list[int]) -> list[int]:
    """``ids`` the fastest-rising first: momentum, then upvotes (the Hub's when newer)."""
    rows = select_in(lib.db, "SELECT id, coalesce(momentum, -1), "
                     "max(coalesce(upvotes, 0), coalesce(hub_upvotes, 0)) FROM papers "
                     "WHERE id IN ({marks}) AND deleted_at IS NULL", ids)
    return [r[0] for r in sorted(rows, key=lambda r: (-r[1], -r[2], r[0]))]


def untriaged_new(lib: Library) -> list[int]:
    """The papers new in the newest day's digests that nobody decided on yet."""
    newest = lib.db.execute("SELECT max(digest_date) FROM digests").fetchone()[0]
    digests = [r[0] for r in lib.db.execute(
        "SELECT id FROM digests WHERE digest_date = ? ORDER BY id", [newest])]
    ids = triage.digest_papers(lib, digests, only_new=True)
    keep = {r[0] for r in select_in(lib.db, "SELECT id FROM papers WHERE id IN ({marks}) "
                                    "AND status = 'unread' AND rating = 0", ids)}
    return [i for i in ids if i in keep]


def fetch_today(lib: Library, today: dt.date | None = None, *, hub: Hub | None = None,
                progress: Progress | None = None,
                cancel: CancelFlag | None = None) -> TodayResult:
    """Fetch the days since the last fetch, complete the new papers, and name them."""
    today = today or dt.date.today()
    first, last = days_to_fetch(lib, today)
    result = TodayResult(first, last)
    hub = hub or Hub()
    step = progress or (lambda _f, _m: None)
    result.days = fetch_days(lib, first, last, hub=hub,
                             progress=lambda f, m: step(f * 0.8, m), cancel=cancel)
    failed = [r for r in result.days if r.status == "failed" and r.error]
    if failed and not any(r.status == "imported" for r in result.days):
        result.offline = str(failed[-1].error).splitlines()[0]
        result.new_ids = by_momentum(lib, untriaged_new(lib))
        return result
    digests = [r.digest_id for r in result.days if r.digest_id is not None]
    if not digests:  # the days were fetched before, or had no papers: what is here
        result.new_ids = by_momentum(lib, untriaged_new(lib))
        return result
    new_ids = triage.digest_papers(lib, digests, only_new=True)
    if new_ids:
        step(0.8, "Completing the new papers from Hugging Face")
        try:
            changes = lib.enrich(new_ids, hub=hub, cancel=cancel)
            result.completed = len(cast("EnrichResult", changes.result).completed)
        except HubError as exc:  # the fetch is in; completing waits for next time
            result.offline = str(exc).splitlines()[0]
    result.new_ids = by_momentum(lib, new_ids)
    step(1.0, "Done")
    return result

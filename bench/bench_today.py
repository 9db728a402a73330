"""Today over a week: how soon triage can open on the first papers, against the whole.

    python bench/bench_today.py [--days 7] [--per-day 30] [--runs 3]

A local stand-in Hub (``tests/fake_hub.py``) lists ``--per-day`` new papers on each of
the last ``--days`` days; a library whose last fetch was the day before them runs Today.
The first row is the time until ``fetch_today`` hands over the newest day's papers (the
window opens triage on them then); the second is the whole Today (every day fetched,
the new papers completed). The floor of both is one day fetched alone into an empty
library (``fetch_days`` of the newest day). The Hub's pace is lifted for the run.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, header, report

sys.path.insert(0, str(ROOT))

from tests.fake_hub import FakeHub, record

from paperdesk.core.hub.daily import fetch_days
from paperdesk.core.hub.hub import Hub, Limits
from paperdesk.core.hub.today import fetch_today
from paperdesk.core.library import Library


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=7)
    parser.add_argument("--per-day", type=int, default=30)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    today = dt.date.today()
    firsts, wholes, floors = [], [], []
    with FakeHub() as hub, tempfile.TemporaryDirectory() as tmp:
        os.environ["HF_ENDPOINT"] = hub.url
        os.environ.pop("HF_HUB_OFFLINE", None)
        before = today - dt.timedelta(days=args.days)
        hub.add(record("2600.00000", "The Day Before", "Its abstract.", ["B"],
                       before.isoformat()), day=before.isoformat())
        for d in range(args.days):
            day = (today - dt.timedelta(days=d)).isoformat()
            for n in range(args.per_day):
                hub.add(record(f"26{d:02d}.{n:05d}", f"Bench Today Paper {d} {n} on routing",
                               f"An abstract about day {d}, paper {n}.", ["Ada Lovelace"],
                               day, upvotes=n), day=day)
        for run in range(args.runs):
            with Library.open(Path(tmp) / f"lib{run}.sqlite", create=True) as lib:
                fetch_days(lib, before, before, hub=Hub(Limits(rate=10_000)))
                first: list[float] = []

                def arrived(_ids: list[int], seen: list[float] = first) -> None:
                    if not seen:
                        seen.append(time.perf_counter())

                start = time.perf_counter()
                fetch_today(lib, today, hub=Hub(Limits(rate=10_000)), arrived=arrived)
                wholes.append(time.perf_counter() - start)
                firsts.append(first[0] - start)
            with Library.open(Path(tmp) / f"floor{run}.sqlite", create=True) as lib:
                start = time.perf_counter()
                fetch_days(lib, today, today, hub=Hub(Limits(rate=10_000)))
                floors.append(time.perf_counter() - start)
    header(f"Today over {args.days} days of {args.per_day} papers (median of {args.runs})")
    floor = statistics.median(floors)
    report("Today: the newest day's papers handed to triage", statistics.median(firsts),
           floor, None)
    report("Today: every day fetched and completed", statistics.median(wholes), floor, None)


if __name__ == "__main__":
    main()

"""The Hub's page of a day grows through the day: Today and fetch ask again and take only
what is new; "nothing new" is said only after the Hub answered."""

from __future__ import annotations

import datetime as dt

import pytest

from paperdesk.core.hub.daily import fetch_days, may_grow
from paperdesk.core.hub.hub import Hub, Limits
from paperdesk.core.hub.today import days_to_fetch, fetch_today
from paperdesk.core.library import Library
from tests.fake_hub import FakeHub, record

DAY = dt.date(2026, 12, 1)


def _paper(n: int) -> dict:
    return record(f"2612.{n:05d}", f"Growing Page Paper {n}", f"An abstract about topic {n}.",
                  [f"Author {n}", "Ada Lovelace"], DAY.isoformat(), upvotes=n)


@pytest.fixture
def hub(monkeypatch):
    with FakeHub() as fake:
        monkeypatch.setenv("HF_ENDPOINT", fake.url)
        yield fake


def _client() -> Hub:
    return Hub(Limits(rate=500, workers=2))


def test_today_twice_with_the_day_grown_brings_the_new_papers(tmp_path, hub):
    for n in (1, 2):
        hub.add(_paper(n), day=DAY.isoformat())
    with Library.open(tmp_path / "lib.sqlite", create=True) as lib:
        first = fetch_today(lib, DAY, hub=_client())
        assert len(first.new_ids) == 2
        for n in (3, 4, 5):
            hub.add(_paper(n), day=DAY.isoformat())
        asked = hub.count("/api/daily_papers")
        second = fetch_today(lib, DAY, hub=_client())
        assert hub.count("/api/daily_papers") > asked
        assert second.fresh == 3
        titles = sorted(lib.paper(i)["title"] for i in second.new_ids[:3])
        assert titles == [f"Growing Page Paper {n}" for n in (3, 4, 5)]
        assert len(second.new_ids) == 5  # and the first two, still untriaged
        assert second.per_day == [("2026-12-01", 5)]
        assert lib.stats()["papers"] == 5
        assert sorted(d["name"] for d in lib.digests()) == [
            "hf-daily-papers-2026-12-01+1.txt", "hf-daily-papers-2026-12-01.txt"]
        assert all(lib.paper(i)["authors"] for i in second.new_ids)
        asked = hub.count("/api/daily_papers")
        third = fetch_today(lib, DAY, hub=_client())
        assert hub.count("/api/daily_papers") > asked  # asked, and only then:
        assert third.summary().startswith("Today: nothing new on the Hub for 2026-12-01")
        assert lib.stats()["papers"] == 5 and len(lib.digests()) == 2


def test_unreachable_says_so_and_never_nothing_new(tmp_path, hub, monkeypatch):
    hub.add(_paper(1), day=DAY.isoformat())
    with Library.open(tmp_path / "lib.sqlite", create=True) as lib:
        fetch_today(lib, DAY, hub=_client())
        monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")
        result = fetch_today(lib, DAY, hub=_client())
        assert result.summary().startswith("The Hub could not be reached")
        assert "nothing new" not in result.summary()


def test_fetch_date_asks_again_and_takes_only_the_new(tmp_path, hub):
    old = dt.date(2025, 11, 4)
    hub.add(_paper(1), day=old.isoformat())
    with Library.open(tmp_path / "lib.sqlite", create=True) as lib:
        [first] = fetch_days(lib, old, old, hub=_client())
        assert (first.status, first.new_papers) == ("imported", 1)
        hub.add(_paper(2), day=old.isoformat())
        [again] = fetch_days(lib, old, old, hub=_client())
        assert (again.status, again.papers, again.new_papers) == ("imported", 1, 1)
        [nothing] = fetch_days(lib, old, old, hub=_client())
        assert nothing.status == "already imported" and nothing.asked
        assert lib.stats()["papers"] == 2
        # Today does not ask for a day long over that was read after its end
        assert days_to_fetch(lib, dt.date(2025, 11, 20))[0] == dt.date(2025, 11, 5)


def test_which_days_may_still_grow():
    today = dt.date(2026, 12, 10)
    assert may_grow(today, ["2026-12-10T08:00:00+00:00"], today)
    assert may_grow(today - dt.timedelta(days=1), ["2026-12-10T08:00:00+00:00"], today)
    # read only on the day itself: its page was still being filled
    assert may_grow(dt.date(2026, 12, 5), ["2026-12-05T07:00:00+00:00"], today)
    # read once after its end: settled
    assert not may_grow(dt.date(2026, 12, 5), ["2026-12-05T07:00:00+00:00",
                                              "2026-12-07T07:00:00+00:00"], today)

"""The Hub's upvotes on the upvote chart (issue 39, build 5): once a paper is completed
from the Hub, the chart shows the Hub's count as a point of its own, beside the
digests' line (not on it), dated the day it was read, labelled "Hub N", and in the
tooltip; the scale holds both."""

from __future__ import annotations

import datetime as dt

from paperdesk.gui.panes.upvote_chart import UpvoteChart, hub_point

from .conftest import select_rows
from .test_enrich_window import _wait_report


def test_a_completed_paper_shows_the_hub_point_beside_the_digests(window, server, qtbot,
                                                                   tmp_path):
    (pid,) = select_rows(window, [4])
    assert window.detail.chart.hub is None  # not completed yet: the digests alone
    window.actions_by_name["complete_selection"].trigger()
    _wait_report(qtbot, window)
    select_rows(window, [5])
    select_rows(window, [4])
    paper = window.lib.paper(pid)
    assert paper["hub_upvotes"] is not None
    chart = window.detail.chart
    qtbot.waitUntil(lambda: chart.hub is not None)
    day, count = chart.hub
    assert count == paper["hub_upvotes"]
    assert day.isoformat() == paper["sources"]["upvotes"]["at"][:10]
    assert f"Hugging Face Hub, {day.isoformat()}: {count}" in chart.toolTip()
    spot = chart.hub_position()
    assert spot is not None and chart.rect().contains(spot.toPoint())
    assert all(spot != p for p in chart.positions())  # its own point, not the line's
    assert ("hub", f"Hub {count}") in [(k, t) for k, t, _r in chart.labels()]
    chart.grab().save(str(tmp_path / "hub-point.png"))


def test_the_hub_alone_and_beside_a_rising_line(qtbot):
    chart = UpvoteChart()
    qtbot.addWidget(chart)
    chart.resize(300, 130)
    chart.set_sightings([], (dt.date(2026, 12, 1), 412))
    assert chart.positions() == [] and chart.hub_position() is not None
    sightings = [{"digest_date": "2026-11-28", "upvotes": 40},
                 {"digest_date": "2026-11-29", "upvotes": 90}]
    chart.set_sightings(sightings, (dt.date(2026, 12, 1), 412))
    low, high = chart.positions()
    hub = chart.hub_position()
    assert hub.x() > high.x() > low.x()  # later than the digests
    assert hub.y() < high.y() < low.y()  # and higher: the scale holds it
    assert hub_point({"hub_upvotes": None}) is None
    assert hub_point({"hub_upvotes": 7, "sources": {"upvotes": {
        "source": "hf", "at": "2026-11-23T08:00:00Z"}}}) == (dt.date(2026, 11, 23), 7)

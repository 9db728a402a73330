"""Screenshots of the triage view, the reading queue and the upvote chart.

Written to the test's temporary folder; with PAPERDESK_SCREENSHOTS=1 they also
replace docs/screenshots/triage.png, reading-queue.png and upvote-chart.png.
"""

from __future__ import annotations

from paperdesk.core.model.digest import parse_digest
from paperdesk.gui.curation import triage_view
from tests.digest_files import growing_digests, write_entries

from .screenshots import save_screenshot
from .test_screenshots import _curate


def _signal_library(lib, tmp_path) -> list[int]:
    """The seeds, then a week of digests in which six papers gather upvotes."""
    reports = lib.import_paths(growing_digests(tmp_path / "week", papers=6, days=4))
    return reports[-1:] and [reports[-1].digest_id]


def test_triage_screenshot(seed_lib, seeds, make_window, tmp_path, qtbot):
    """Seed papers seen again over a week, their upvotes climbing."""
    entries = parse_digest(seeds[1].read_bytes(), seeds[1].name, 2025).entries[:6]
    folder = tmp_path / "again"
    folder.mkdir()
    for week in range(4):
        path = write_entries(folder, f"daily-{week}.txt", 3, 1 + 7 * week, [
            (e.title, e.abstract, 5 + (n + 1) * 13 * week) for n, e in enumerate(entries)])
        (report,) = seed_lib.import_paths([path])
    digests = [report.digest_id]
    window = make_window(seed_lib)
    view = triage_view.open_triage(window, digests)
    qtbot.addWidget(view)
    view.resize(960, 640)
    qtbot.keyClick(view, "t")
    qtbot.keyClick(view, "n")
    qtbot.keyClick(view, "n")
    qtbot.keyClick(view, "n")
    assert view.progress_label.text() == "5 of 6"
    assert view.evidence.text() == "Seen in 5 digests, upvotes 5 → 200"
    qtbot.wait(50)
    save_screenshot(view, tmp_path, "triage.png")


def test_reading_queue_screenshot(seed_lib, make_window, tmp_path, qtbot):
    _curate(seed_lib)
    _signal_library(seed_lib, tmp_path)
    ids = seed_lib.search(sort="momentum", descending=True, limit=3).ids
    seed_lib.curation.set_status(ids, "to-read")
    window = make_window(seed_lib)
    window.resize(1440, 820)
    window.sidebar.select(("list", None))
    window.feed.select_ids([window.feed.model.paper_id(2)], window.feed.model.paper_id(2))
    window.actions_by_name["queue_top"].trigger()
    model = window.feed.model
    assert model.rowCount() == 7 and window.feed.current_id() == model.paper_id(0)
    title = seed_lib.paper(window.feed.current_id())["title"]
    qtbot.waitUntil(lambda: any(i.text(0) == f"Next up: {title}"
                                for i in window.sidebar.entries()))
    window.feed.view.horizontalScrollBar().setValue(0)
    qtbot.wait(50)
    save_screenshot(window, tmp_path, "reading-queue.png")


def test_upvote_chart_screenshot(seed_lib, make_window, tmp_path, qtbot):
    _signal_library(seed_lib, tmp_path)
    window = make_window(seed_lib)
    window.resize(1440, 820)
    window.splitter.setSizes([200, 720, 520])
    pid = seed_lib.search(sort="momentum", descending=True, limit=1).ids[0]
    window.feed.select_ids([pid], pid)
    assert len(window.detail.chart.data) == 4
    qtbot.wait(50)
    save_screenshot(window.detail, tmp_path, "upvote-chart.png")

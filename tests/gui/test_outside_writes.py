"""A write by another program (a `paperdesk tag` from a terminal) reaches the open
window at its next look for outside writes (twice a second), through the change feed
its own edits use: the row, the detail pane and the sidebar count repaint; the
selection and the scroll stay. The looks are counted, not the seconds."""

from __future__ import annotations

from paperdesk.core.db import changes as ch
from paperdesk.gui.jobs.outside_feed import INTERVAL_MS
from paperdesk.gui.table.paper_model import TAGS
from tests.core.test_outside_writes import _cli

from .conftest import select_row, sidebar_counts


def looks(window) -> list[int]:
    """One item for every look the window makes for outside writes from now on."""
    made: list[int] = []
    window.context.features["outside"].timer.timeout.connect(lambda: made.append(1))
    return made


def test_a_tag_from_a_terminal_shows_in_the_row_detail_and_sidebar(window, qtbot):
    lib = window.lib
    # The start-up scan for duplicates (on the worker) is in: a write of the window's
    # own that lands in the same half second as one from outside hides it until the
    # next one (core/db/dbfile.py).
    qtbot.waitUntil(lambda: not window.context.ops.busy, timeout=20000)
    qtbot.wait(2 * INTERVAL_MS)
    heard: list[ch.Changes] = []
    lib.add_listener(heard.append)
    window.feed.view.verticalScrollBar().setValue(0)
    row = 30
    paper = select_row(window, row)
    bar = window.feed.view.verticalScrollBar()
    bar.setValue(min(12, bar.maximum()))
    scrolled = bar.value()
    assert "from-cron" not in sidebar_counts(window)
    _cli(lib, "tag", str(paper), "+from-cron")  # committed when it returns
    made = looks(window)
    qtbot.waitUntil(lambda: bool(heard), timeout=30000)
    assert len(made) == 1  # heard at the first look after it
    qtbot.waitUntil(lambda: sidebar_counts(window).get("from-cron") == "1")
    assert [c.how for c in heard] == [ch.OUTSIDE]
    assert window.feed.current_id() == paper and window.feed.selected_ids() == [paper]
    qtbot.waitUntil(lambda: "from-cron" in window.detail.tags.text())
    qtbot.waitUntil(lambda: bar.value() == scrolled)
    tags = window.feed.model.data(window.feed.model.index(window.feed.model.row_of(paper), TAGS))
    assert "from-cron" in tags


def test_nothing_written_outside_nothing_heard(window, qtbot):
    heard: list[ch.Changes] = []
    window.lib.add_listener(heard.append)
    made = looks(window)
    window.rate_selected(4)  # the window's own edit: heard once, as its own
    qtbot.waitUntil(lambda: len(made) >= 2, timeout=30000)  # two looks since
    assert [c.how for c in heard] == [ch.DONE]

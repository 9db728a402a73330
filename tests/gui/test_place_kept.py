"""The place is kept (issue 39, "What broke" 4): a search that leaves the selected paper
out (one typo), then Esc, selects that paper again, in view, with the detail pane on
it; an import by another program (`paperdesk import` in a terminal), heard through the
outside-writes feed, moves rows above the selected one, yet the selected row stays in
view where it was and the detail pane and the table agree."""

from __future__ import annotations

from PySide6.QtCore import Qt

from paperdesk.gui.table.paper_model import TITLE
from tests.conftest import SEED_PAPERS
from tests.core.test_outside_writes import _cli
from tests.digest_files import write_digest

from .conftest import select_row


def in_view(window, row: int) -> bool:
    rect = window.feed.view.visualRect(window.feed.model.index(row, TITLE))
    return window.feed.view.viewport().rect().contains(rect)


def test_a_typo_then_esc_gives_the_selection_back(window, qtbot):
    window.feed.view.scrollToBottom()
    pid = select_row(window, 170)
    assert window.detail.ids == [pid]
    window.search_bar.edit.setFocus()
    qtbot.keyClicks(window.search_bar.edit, "transfromerzz")  # a typo: nothing matches
    qtbot.waitUntil(lambda: window.feed.model.rowCount() == 0)
    assert window.detail.ids == []
    qtbot.keyClick(window.search_bar.edit, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: window.feed.model.rowCount() == SEED_PAPERS)
    assert window.feed.current_id() == pid and window.feed.selected_ids() == [pid]
    assert in_view(window, window.feed.model.row_of(pid))
    assert window.detail.ids == [pid]


def test_a_list_that_leaves_it_out_shows_another_then_gives_it_back(window, seed_lib, qtbot):
    other = window.feed.model.paper_id(0)
    window.edit(seed_lib.curation.set_status, [other], "to-read")
    window.feed.view.scrollToBottom()
    pid = select_row(window, 185)
    window.sidebar.select(("list", None))  # the queue holds only the other paper
    assert window.feed.selected_ids() == [other] and window.detail.ids == [other]
    window.sidebar.select(("all", None))
    assert window.feed.selected_ids() == [pid] and window.detail.ids == [pid]
    assert in_view(window, window.feed.model.row_of(pid))
    # A row the user moves to is the one kept from then on.
    window.sidebar.select(("list", None))
    select_row(window, 0)
    qtbot.keyClick(window.feed.view, Qt.Key.Key_F35)
    window.feed.view.pressed.emit(window.feed.model.index(0, TITLE))  # a click on the stand-in
    window.sidebar.select(("all", None))
    assert window.feed.selected_ids() == [other]


def test_an_import_from_another_program_keeps_the_selected_row_in_view(window, qtbot, tmp_path):
    lib = window.lib
    qtbot.waitUntil(lambda: not window.context.ops.busy)
    window.feed.view.scrollToTop()
    row = 8
    pid = select_row(window, row)  # near the top, newest first: the import lands above it
    y = window.feed.view.rowViewportPosition(row)
    digest = write_digest(tmp_path, "cron.txt", 12, 30, {n: n for n in range(40)}, year=2030)
    _cli(lib, "import", str(digest))
    qtbot.waitUntil(lambda: window.feed.model.rowCount() == SEED_PAPERS + 40)
    view, model = window.feed.view, window.feed.model
    qtbot.waitUntil(lambda: view.rowViewportPosition(model.row_of(pid)) == y)
    new_row = window.feed.model.row_of(pid)
    assert new_row >= row + 40  # pushed down by the new papers
    assert window.feed.selected_ids() == [pid] and window.feed.current_id() == pid
    assert in_view(window, new_row)
    assert window.detail.ids == [pid]

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
    rect = window.table.visualRect(window.model.index(row, TITLE))
    return window.table.viewport().rect().contains(rect)


def test_a_typo_then_esc_gives_the_selection_back(window, qtbot):
    window.table.scrollToBottom()
    pid = select_row(window, 170)
    assert window.detail.ids == [pid]
    window.search_bar.edit.setFocus()
    qtbot.keyClicks(window.search_bar.edit, "transfromerzz")  # a typo: nothing matches
    qtbot.waitUntil(lambda: window.model.rowCount() == 0)
    assert window.detail.ids == []
    qtbot.keyClick(window.search_bar.edit, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: window.model.rowCount() == SEED_PAPERS)
    assert window.feed.current_id() == pid and window.selected_ids() == [pid]
    assert in_view(window, window.model.row_of(pid))
    assert window.detail.ids == [pid]


def test_a_list_that_leaves_it_out_shows_another_then_gives_it_back(window, seed_lib, qtbot):
    other = window.model.paper_id(0)
    window.edit(seed_lib.curation.set_status, [other], "to-read")
    window.table.scrollToBottom()
    pid = select_row(window, 185)
    window.sidebar.select(("list", None))  # the queue holds only the other paper
    assert window.selected_ids() == [other] and window.detail.ids == [other]
    window.sidebar.select(("all", None))
    assert window.selected_ids() == [pid] and window.detail.ids == [pid]
    assert in_view(window, window.model.row_of(pid))
    # A row the user moves to is the one kept from then on.
    window.sidebar.select(("list", None))
    select_row(window, 0)
    qtbot.keyClick(window.table, Qt.Key.Key_F35)
    window.table.pressed.emit(window.model.index(0, TITLE))  # a click on the stand-in
    window.sidebar.select(("all", None))
    assert window.selected_ids() == [other]


def test_an_import_from_another_program_keeps_the_selected_row_in_view(window, qtbot, tmp_path):
    lib = window.lib
    qtbot.waitUntil(lambda: not window.context.ops.busy)
    window.table.scrollToTop()
    row = 8
    pid = select_row(window, row)  # near the top, newest first: the import lands above it
    y = window.table.rowViewportPosition(row)
    digest = write_digest(tmp_path, "cron.txt", 12, 30, {n: n for n in range(40)}, year=2030)
    _cli(lib, "import", str(digest))
    qtbot.waitUntil(lambda: window.model.rowCount() == SEED_PAPERS + 40)
    qtbot.waitUntil(lambda: window.table.rowViewportPosition(window.model.row_of(pid)) == y)
    new_row = window.model.row_of(pid)
    assert new_row >= row + 40  # pushed down by the new papers
    assert window.selected_ids() == [pid] and window.feed.current_id() == pid
    assert in_view(window, new_row)
    assert window.detail.ids == [pid]

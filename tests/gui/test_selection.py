"""The current paper stays selected and in view across sort, search, sidebar switch,
refresh and import; otherwise the first row; the count of a selection is exact."""

from __future__ import annotations

from PySide6.QtCore import Qt

from paperdesk.gui.table.paper_model import TITLE, UPVOTES
from tests.conftest import SEED_PAPERS
from tests.digest_files import write_digest
from tests.work import statements

from .conftest import select_row


def shown_row(window) -> int:
    index = window.feed.view.currentIndex()
    assert index.isValid()
    assert window.feed.view.selectionModel().isRowSelected(index.row())
    rect = window.feed.view.visualRect(window.feed.model.index(index.row(), TITLE))
    assert window.feed.view.viewport().rect().intersects(rect), "the selected row is in view"
    return index.row()


def current(window) -> int:
    row = shown_row(window)
    assert window.detail.ids == [window.feed.model.paper_id(row)], "the pane shows the selection"
    return window.feed.model.paper_id(row)


def focus_table(window, qtbot) -> None:
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.feed.view.setFocus()


def test_selection_kept_across_sort_search_switch_refresh(window, seed_lib, qtbot):
    pid = select_row(window, 150)
    window.feed.view.sortByColumn(UPVOTES, Qt.SortOrder.DescendingOrder)
    assert current(window) == pid
    window.feed.view.sortByColumn(TITLE, Qt.SortOrder.AscendingOrder)
    assert current(window) == pid
    title = seed_lib.paper(pid)["title"]
    word = max(title.split(), key=len).strip(":,.")
    qtbot.keyClicks(window.search_bar.edit, word)
    qtbot.waitUntil(lambda: window.feed.model.rowCount() < SEED_PAPERS)
    assert current(window) == pid
    window.search_bar.edit.clear()
    qtbot.waitUntil(lambda: window.feed.model.rowCount() == SEED_PAPERS)
    assert current(window) == pid
    window.reload_all()  # a refresh
    assert current(window) == pid
    window.sidebar.select(("status", "unread"))
    assert current(window) == pid
    focus_table(window, qtbot)
    qtbot.keyClick(window.feed.view, Qt.Key.Key_3)  # keyboard rating lands on it
    assert seed_lib.paper(pid)["rating"] == 3


def test_paper_left_out_selects_the_first_row_then_comes_back(window, seed_lib, qtbot):
    pid = select_row(window, 180)
    window.feed.view.scrollToBottom()
    window.edit(seed_lib.curation.set_status, [window.feed.model.paper_id(0)], "to-read")
    window.sidebar.select(("list", None))  # the paper is not on the reading list
    assert window.feed.model.rowCount() == 1
    assert shown_row(window) == 0 and current(window) != pid
    window.sidebar.select(("all", None))
    # The paper left out is still the one wanted (issue 39): listed again, it is back.
    assert current(window) == pid
    pid = select_row(window, 190)
    window.feed.view.scrollToBottom()
    qtbot.keyClicks(window.search_bar.edit, "zzznothingmatches")
    qtbot.waitUntil(lambda: window.feed.model.rowCount() == 0)
    assert window.detail.ids == []
    assert window.feed.empty_note.isVisible()
    assert window.feed.empty_note.text().startswith("No papers match “zzznothingmatches”")
    window.search_bar.edit.clear()
    qtbot.waitUntil(lambda: window.feed.model.rowCount() == SEED_PAPERS)
    assert shown_row(window) == 190 and current(window) == pid
    assert not window.feed.empty_note.isVisible()
    window.edit(seed_lib.trash.delete, [pid])  # gone: the row where it was stands in
    qtbot.waitUntil(lambda: window.feed.model.rowCount() == SEED_PAPERS - 1)
    assert shown_row(window) == 190 and current(window) != pid


def test_selection_kept_across_an_import(window, seed_lib, qtbot, tmp_path):
    window.feed.view.sortByColumn(TITLE, Qt.SortOrder.AscendingOrder)
    pid = select_row(window, 192)  # the last title: the new ones sort before it
    window.context.importer.start([write_digest(tmp_path, "more.txt", 3, 3,
                                                {n: n for n in range(30)})])
    qtbot.waitUntil(lambda: window.feed.model.rowCount() == 223, timeout=20000)
    window.context.importer.report.accept()
    assert current(window) == pid
    assert window.feed.model.row_of(pid) == 222  # it moved down, and is in view


def test_empty_result_explains_and_hints(window, qtbot):
    qtbot.keyClicks(window.search_bar.edit, "status:to-raed")
    qtbot.waitUntil(lambda: window.search_bar.message.isVisible())
    assert "did you mean to-read?" in window.search_bar.message.text()
    window.search_bar.edit.setText("tag:nosuchtag")
    qtbot.waitUntil(lambda: window.feed.model.rowCount() == 0)
    assert "No tag “nosuchtag”" in window.feed.empty_note.text()


def test_exact_selection_count_on_20000_papers(make_window, lib, tmp_path, qtbot):
    votes = {n: n % 50 for n in range(20000)}
    lib.import_paths([write_digest(tmp_path, "big.txt", 5, 5, votes)])
    assert lib.stats()["papers"] == 20000
    window = make_window(lib)
    focus_table(window, qtbot)
    qtbot.keyClick(window.feed.view, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    assert len(window.feed.selected_ids()) == 20000
    assert window.detail.title.text() == "20,000 papers selected"
    with statements(lib.db.conn) as ran:
        window.show_selection()
    # the pane reads no rows: three summaries counted in SQL, each answering a few rows
    assert len(ran) == 3 and all("LIMIT 2" in q or "GROUP BY" in q for q in ran), ran
    assert window.detail.title.text() == "20,000 papers selected"
    window.rate_selected(4)
    assert lib.db.execute("SELECT count(*) FROM papers WHERE rating = 4").fetchone()[0] == 20000
    # a search narrows, then select-all: every match, not a page
    expected = len(lib.search("Sparse").ids)
    qtbot.keyClicks(window.search_bar.edit, "Sparse")
    qtbot.waitUntil(lambda: window.feed.query == "Sparse")
    window.feed.view.selectAll()
    assert len(window.feed.selected_ids()) == expected == 4000
    assert window.detail.title.text() == "4,000 papers selected"

"""Edits from the window reach the library, and Undo takes them back."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from paperdesk.gui.table.paper_model import RATING, STATUS, TAGS
from tests.conftest import SEED_PAPERS

from .conftest import select_row, sidebar_counts


def undo(window) -> None:
    window.actions_by_name["undo"].trigger()


def test_clicking_a_star_rates_the_paper_and_undo_restores(window, seed_lib, qtbot):
    pid = select_row(window, 3)
    stars = window.detail.stars
    qtbot.mouseClick(stars, Qt.MouseButton.LeftButton, pos=QPoint(4 * 18 - 6, 10))
    assert seed_lib.paper(pid)["rating"] == 4
    assert window.feed.model.index(3, RATING).data(Qt.ItemDataRole.EditRole) == 4
    undo(window)
    assert seed_lib.paper(pid)["rating"] == 0
    assert window.feed.model.index(3, RATING).data(Qt.ItemDataRole.EditRole) == 0
    window.actions_by_name["redo"].trigger()
    assert seed_lib.paper(pid)["rating"] == 4


def test_clicking_stars_in_the_table_rates_that_row(window, seed_lib, qtbot):
    window.resize(1400, 800)  # the rating column in view
    table, model = window.feed.view, window.feed.model
    pid = model.paper_id(5)

    def click_third_star() -> None:
        row = next(r for r in range(model.rowCount()) if model.paper_id(r) == pid)
        rect = table.visualRect(model.index(row, RATING))
        qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton,
                         pos=QPoint(rect.left() + 3 * 18 - 6, rect.center().y()))

    click_third_star()
    assert seed_lib.paper(pid)["rating"] == 3
    qtbot.wait(QApplication.doubleClickInterval() + 50)  # a second click, not a double one
    click_third_star()  # the current rating again: unrated
    assert seed_lib.paper(pid)["rating"] == 0
    undo(window)
    assert seed_lib.paper(pid)["rating"] == 3


def test_keyboard_rates_and_marks_read(window, seed_lib, qtbot):
    pid = select_row(window, 0)
    window.feed.view.setFocus()
    window.actions_by_name["rate5"].trigger()
    assert seed_lib.paper(pid)["rating"] == 5
    window.actions_by_name["mark_read"].trigger()
    assert seed_lib.paper(pid)["status"] == "read"
    assert window.feed.model.index(0, STATUS).data() == "Read"
    qtbot.waitUntil(lambda: sidebar_counts(window)["Read"] == "1")
    undo(window)
    assert seed_lib.paper(pid)["status"] == "unread"
    undo(window)
    assert seed_lib.paper(pid)["rating"] == 0


def test_tags_apply_to_every_selected_paper_and_undo(window, seed_lib, qtbot):
    window.feed.view.selectRow(0)
    for row in (1, 2):
        window.feed.view.selectionModel().select(
            window.feed.model.index(row, 0),
            window.feed.view.selectionModel().SelectionFlag.Select
            | window.feed.view.selectionModel().SelectionFlag.Rows)
    ids = window.feed.selected_ids()
    assert len(ids) == 3
    qtbot.keyClicks(window.detail.tag_entry, "scaling, to-cite")
    qtbot.keyClick(window.detail.tag_entry, Qt.Key.Key_Return)
    for paper in seed_lib.papers(ids):
        assert paper["tags"] == ["scaling", "to-cite"]
    assert window.feed.model.index(0, TAGS).data() == "scaling, to-cite"
    qtbot.waitUntil(lambda: sidebar_counts(window).get("to-cite") == "3")
    window.detail.tag_removed.emit(ids, "scaling")
    assert all(p["tags"] == ["to-cite"] for p in seed_lib.papers(ids))
    undo(window)
    undo(window)
    assert all(p["tags"] == [] for p in seed_lib.papers(ids))


def test_status_from_the_detail_pane_and_undo(window, seed_lib):
    pid = select_row(window, 5)
    combo = window.detail.status
    index = combo.findData("reading")
    combo.setCurrentIndex(index)
    combo.activated.emit(index)
    assert seed_lib.paper(pid)["status"] == "reading"
    undo(window)
    assert seed_lib.paper(pid)["status"] == "unread"


def test_notes_save_as_you_type_and_undo(window, seed_lib, qtbot):
    pid = select_row(window, 7)
    note = window.detail.note
    qtbot.keyClicks(note, "Read the appendix")
    qtbot.waitUntil(lambda: [n["text"] for n in seed_lib.paper(pid)["notes"]]
                    == ["Read the appendix"], timeout=5000)
    qtbot.keyClicks(note, " first")
    qtbot.waitUntil(lambda: [n["text"] for n in seed_lib.paper(pid)["notes"]]
                    == ["Read the appendix first"], timeout=5000)
    undo(window)
    assert [n["text"] for n in seed_lib.paper(pid)["notes"]] == ["Read the appendix"]
    assert note.toPlainText() == "Read the appendix"
    undo(window)
    assert seed_lib.paper(pid)["notes"] == []
    assert note.toPlainText() == ""


def test_a_pending_note_is_saved_when_the_selection_moves(window, seed_lib, qtbot):
    pid = select_row(window, 2)
    qtbot.keyClicks(window.detail.note, "quick thought")
    select_row(window, 3)
    assert [n["text"] for n in seed_lib.paper(pid)["notes"]] == ["quick thought"]


def test_correcting_an_inferred_year(window, seed_lib):
    paper = next(p for p in seed_lib.papers(window.feed.model.ids()) if p["year_inferred"])
    window.edit(seed_lib.curation.set_year, paper["id"], 2023)
    row = window.feed.model.row_of(paper["id"])
    assert window.feed.model.index(row, 1).data() == "2023"
    undo(window)
    assert window.feed.model.index(row, 1).data() == f"{paper['year']}?"


def test_a_core_error_is_a_readable_message(window, seed_lib):
    stats = seed_lib.stats()
    window.edit(seed_lib.curation.set_rating, [999999], 3)
    assert "no paper with id 999999" in window.statusBar().currentMessage()
    assert seed_lib.stats() == stats
    assert window.undo_stack.count() == 0


def test_single_key_shortcuts_work_in_the_table_not_while_typing(window, seed_lib, qtbot):
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    select_row(window, 0)
    window.feed.view.setFocus()
    qtbot.keyClick(window.feed.view, Qt.Key.Key_J)
    pid = window.feed.current_id()
    assert pid == window.feed.model.paper_id(1)
    qtbot.keyClick(window.feed.view, Qt.Key.Key_3)
    assert seed_lib.paper(pid)["rating"] == 3
    qtbot.keyClick(window.feed.view, Qt.Key.Key_R)
    assert seed_lib.paper(pid)["status"] == "read"
    qtbot.keyClick(window.feed.view, Qt.Key.Key_K)
    assert window.feed.current_id() == window.feed.model.paper_id(0)
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert window.search_bar.edit.hasFocus()
    qtbot.keyClicks(window.search_bar.edit, "5")
    assert seed_lib.paper(window.feed.current_id())["rating"] == 0  # typed, not a shortcut
    window.feed.view.setFocus()
    qtbot.keyClick(window.feed.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert seed_lib.paper(pid)["status"] == "unread"  # Ctrl+Z undid "mark read"


def test_tag_completion_completes_the_tag_after_the_last_comma(window, seed_lib, qtbot):
    seed_lib.curation.add_tags([window.feed.model.paper_id(9)], ["reinforcement-learning"])
    window.reload_all()
    completer = window.detail.tag_entry.completer()
    window.detail.tag_entry.setText("scaling, rein")
    assert completer.splitPath("scaling, rein") == ["rein"]
    completer.setCompletionPrefix("rein")
    assert completer.currentIndex().data() == "reinforcement-learning"
    assert completer.currentCompletion() == "scaling, reinforcement-learning"


def test_rating_every_paper_at_once(window, seed_lib, monkeypatch):
    from paperdesk.gui.table import paper_model

    monkeypatch.setattr(paper_model, "MANY", 50)  # take the whole-table path at 193 papers
    window.feed.view.selectAll()
    assert len(window.feed.selected_ids()) == SEED_PAPERS
    window.rate_selected(2)
    assert {p["rating"] for p in seed_lib.papers(window.feed.model.ids())} == {2}
    assert {window.feed.model.index(r, RATING).data(Qt.ItemDataRole.EditRole)
            for r in range(SEED_PAPERS)} == {2}
    undo(window)
    assert {p["rating"] for p in seed_lib.papers(window.feed.model.ids())} == {0}
    assert window.feed.model.index(100, RATING).data(Qt.ItemDataRole.EditRole) == 0


def test_an_undo_that_gives_a_paper_a_new_key_says_so(window, seed_lib, tmp_path):
    """Undoing a merge whose kept key was exported since: the key stays with the kept
    paper, and the window says which key the other paper came back under."""
    from tests.core.test_undo_keys import _pair

    a, b, _key_a, key_b = _pair(seed_lib)
    window.context.ops.edit(seed_lib.duplicates.merge, a, [b], {"citekey": b})
    seed_lib.bibtex.export_to(tmp_path / "a.bib", [a])  # b's key leaves as a's
    undo(window)
    fresh = seed_lib.paper(b)["citekey"]
    assert seed_lib.paper(a)["citekey"] == key_b and fresh != key_b
    message = window.statusBar().currentMessage()
    assert f"new citation key ({fresh})" in message, message

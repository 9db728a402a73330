"""Slips a daily user trips on: undo in triage, focus after tagging, Tab in the note,
the selection after a delete, the detail pane's scroll."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from paperdesk.core.areas import triage
from paperdesk.gui import keyboard, triage_view

from .conftest import select_row


def active(window, qtbot) -> None:
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)


def _triage(window, seed_lib, qtbot):
    digest = seed_lib.digests()[0]
    ids = triage.digest_papers(seed_lib, [digest["id"]])
    view = triage_view.open_triage(window, [digest["id"]])
    qtbot.addWidget(view)
    qtbot.waitUntil(view.isActiveWindow)
    return view, ids


def test_ctrl_z_in_triage_undoes_and_goes_back(window, seed_lib, qtbot):
    view, ids = _triage(window, seed_lib, qtbot)
    before = seed_lib.paper(ids[0])["status"]
    qtbot.keyClick(view, Qt.Key.Key_T)
    assert seed_lib.paper(ids[0])["status"] == "to-read" and view.index == 1
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert seed_lib.paper(ids[0])["status"] == before
    assert view.index == 0 and view.title.text() == seed_lib.paper(ids[0])["title"]
    qtbot.keyClick(view, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert seed_lib.paper(ids[0])["status"] == "to-read"
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)
    assert seed_lib.paper(ids[0])["status"] == "to-read"


def test_skip_leaves_the_paper_unread_and_the_keys_say_undo(window, seed_lib, qtbot):
    view, ids = _triage(window, seed_lib, qtbot)
    qtbot.keyClick(view, Qt.Key.Key_S)
    assert seed_lib.paper(ids[0])["status"] == "unread" and view.index == 1
    assert "Ctrl+Z" in view.legend.text() and "unread" in view.legend.text()
    sheet = keyboard.show_sheet(window)
    qtbot.addWidget(sheet)
    assert ("Triage", "Ctrl+Z", "Undo") in sheet.entries


def test_enter_or_esc_in_the_tag_box_goes_back_to_the_table(window, seed_lib, qtbot):
    active(window, qtbot)
    pid = select_row(window, 2)
    window.table.setFocus()
    qtbot.keyClick(window.table, Qt.Key.Key_G)
    assert window.detail.tag_entry.hasFocus()
    qtbot.keyClicks(window.detail.tag_entry, "later")
    qtbot.keyClick(window.detail.tag_entry, Qt.Key.Key_Return)
    assert "later" in seed_lib.paper(pid)["tags"]
    assert window.table.hasFocus()
    qtbot.keyClick(window.table, Qt.Key.Key_T)  # a command, not typing
    assert seed_lib.paper(pid)["status"] == "to-read"
    assert window.detail.tag_entry.text() == ""
    qtbot.keyClick(window.table, Qt.Key.Key_G)
    qtbot.keyClicks(window.detail.tag_entry, "xx")
    qtbot.keyClick(window.detail.tag_entry, Qt.Key.Key_Escape)
    assert window.table.hasFocus() and window.detail.tag_entry.text() == ""
    qtbot.keyClick(window.table, Qt.Key.Key_W)
    assert seed_lib.paper(pid)["status"] == "reading"
    assert window.detail.tag_entry.text() == ""


def test_tab_in_the_note_moves_focus_and_saves_no_tab(window, seed_lib, qtbot):
    active(window, qtbot)
    pid = select_row(window, 0)
    note = window.detail.note
    note.setFocus()
    qtbot.keyClicks(note, "first")
    qtbot.keyClick(note, Qt.Key.Key_Tab)
    assert not note.hasFocus() and QApplication.focusWidget() is not note
    window.detail.flush_note()
    assert "\t" not in note.toPlainText()
    assert [n["text"] for n in seed_lib.paper(pid)["notes"]] == ["first"]


def test_delete_and_undo_keep_the_next_paper_selected_and_in_view(window, seed_lib, qtbot):
    active(window, qtbot)
    window.resize(1200, 600)
    row = 60
    gone = select_row(window, row)
    window.table.scrollTo(window.model.index(row, 0))
    bar = window.table.verticalScrollBar()
    scroll = bar.value()
    assert scroll > 0
    following = window.model.paper_id(row + 1)
    window.table.setFocus()
    qtbot.keyClick(window.table, Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: window.model.row_of(gone) is None)
    assert window.selected_ids() == [following]
    assert window.table.currentIndex().row() == row
    assert abs(bar.value() - scroll) <= 2
    assert window.detail.ids == [following]
    window.undo_stack.undo()
    qtbot.waitUntil(lambda: window.model.row_of(gone) is not None)
    assert window.selected_ids() == [following]
    assert abs(bar.value() - scroll) <= 2


def test_the_detail_pane_starts_at_the_top_for_a_new_paper(window, seed_lib, qtbot):
    active(window, qtbot)
    window.resize(1000, 420)
    select_row(window, 0)
    detail = window.detail
    qtbot.waitUntil(lambda: detail.verticalScrollBar().maximum() > 0)
    detail.verticalScrollBar().setValue(detail.verticalScrollBar().maximum())
    select_row(window, 1)
    assert detail.verticalScrollBar().value() == 0

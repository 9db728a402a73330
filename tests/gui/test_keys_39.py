"""Keys of the morning (issue 39, "What broke" 5): F1 lists keys by area in the order a
person learns them, without the undo stack's current text; Tab from the note goes to
the table, where J and K work; Ctrl+End and Ctrl+Home select the last and first row."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from paperdesk.gui import keyboard
from paperdesk.gui.shortcuts_sheet import AREAS

from .conftest import active, select_row


def test_the_sheet_goes_by_area_in_learning_order_without_the_undo_text(window, qtbot):
    window.rate_selected(3)  # the undo stack now says "Undo Rate …"
    assert window.actions_by_name["undo"].text() != "&Undo"
    sheet = keyboard.show_sheet(window)
    qtbot.addWidget(sheet)
    areas = list(dict.fromkeys(area for area, _k, _w in sheet.entries))
    order = [a for a, _names in AREAS]
    known = [a for a in areas if a in order]
    assert known == sorted(known, key=order.index)  # each area once, in its order
    assert areas[0] == "Moving around" and known[-1] in ("The library", "Help")
    whats = [w for _a, _k, w in sheet.entries]
    assert not any(w.startswith("Undo Rate") or ("Rate" in w and w.startswith("Undo"))
                   for w in whats)
    assert "Undo the last edit" in whats
    moving = [w for a, _k, w in sheet.entries if a == "Moving around"]
    assert moving[:2] == ["Next paper", "Previous paper"]  # not alphabetical
    assert len({(a, k) for a, k, _w in sheet.entries}) == len(sheet.entries)


def test_tab_from_the_note_goes_to_the_table_where_j_works(window, qtbot):
    active(window, qtbot)
    select_row(window, 0)
    window.feed.view.setFocus()
    qtbot.keyClick(window.feed.view, Qt.Key.Key_N)
    assert window.detail.note.hasFocus()
    qtbot.keyClick(window.detail.note, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is window.feed.view
    qtbot.keyClick(window.feed.view, Qt.Key.Key_J)
    assert window.feed.view.currentIndex().row() == 1


def test_ctrl_end_and_ctrl_home_select_the_last_and_the_first_row(window, qtbot):
    active(window, qtbot)
    select_row(window, 5)
    window.feed.view.setFocus()
    qtbot.keyClick(window.feed.view, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
    last = window.feed.model.rowCount() - 1
    assert window.feed.selected_ids() == [window.feed.model.paper_id(last)]
    assert window.detail.ids == [window.feed.model.paper_id(last)]
    qtbot.keyClick(window.feed.view, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    assert window.feed.selected_ids() == [window.feed.model.paper_id(0)]

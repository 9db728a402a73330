"""Triage by single keys, the keyboard for the frequent actions, Tab order, the note's
own Ctrl+Z, the rows' context menu, the upvote chart."""

from __future__ import annotations

import itertools

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMenu, QPushButton

from paperdesk.gui import keyboard
from paperdesk.gui.curation import triage_view
from paperdesk.gui.table.paper_model import MOMENTUM
from tests.digest_files import growing_digests, write_digest

from .conftest import active, first_digest_triage, select_row


def test_triage_walks_a_digest_with_single_keys(window, seed_lib, qtbot):
    view, ids, digest = first_digest_triage(window, seed_lib, qtbot)
    assert view.progress_label.text() == f"1 of {len(ids)}"
    assert view.title.text() == seed_lib.paper(ids[0])["title"]
    assert view.evidence.text().startswith("Seen in ")
    qtbot.keyClick(view, Qt.Key.Key_T)  # to read, and on to the next
    assert seed_lib.paper(ids[0])["status"] == "to-read"
    assert view.progress_label.text() == f"2 of {len(ids)}"
    qtbot.keyClick(view, Qt.Key.Key_4)  # stars stay on the paper
    assert seed_lib.paper(ids[1])["rating"] == 4 and view.index == 1
    status = seed_lib.paper(ids[1])["status"]
    qtbot.keyClick(view, Qt.Key.Key_S)  # skip: left as it is, on to the next
    assert seed_lib.paper(ids[1])["status"] == status and view.index == 2
    qtbot.keyClick(view, Qt.Key.Key_G)
    assert view.tag_entry.isVisible() and view.tag_entry.hasFocus()
    qtbot.keyClicks(view.tag_entry, "later, rl")
    qtbot.keyClick(view.tag_entry, Qt.Key.Key_Return)
    assert seed_lib.paper(ids[2])["tags"] == ["later", "rl"]
    qtbot.keyClick(view, Qt.Key.Key_N)
    qtbot.keyClick(view, Qt.Key.Key_Right)
    qtbot.keyClick(view, Qt.Key.Key_P)
    assert view.progress_label.text() == f"4 of {len(ids)}"
    view.close()
    window.undo_stack.undo()  # each decision is an undoable edit
    assert seed_lib.paper(ids[2])["tags"] == []
    again = triage_view.open_triage(window, [digest["id"]])  # it remembers where we stopped
    qtbot.addWidget(again)
    assert again.progress_label.text() == f"4 of {len(ids)}"


def test_triage_after_an_import_shows_the_evidence(window, seed_lib, qtbot, tmp_path):
    files = growing_digests(tmp_path / "g", papers=3, days=3)
    seed_lib.import_paths(files[:2])
    window.context.importer.start([files[2]])
    qtbot.waitUntil(lambda: window.context.importer.report is not None, timeout=20000)
    qtbot.waitUntil(lambda: window.context.importer.report.findChild(
        QPushButton, "triage-button") is not None)
    button = window.context.importer.report.findChild(QPushButton, "triage-button")
    assert "3 papers" in button.text()
    button.click()
    view = window.context.features["triage"].view
    qtbot.addWidget(view)
    assert view.progress_label.text() == "1 of 3"
    assert view.evidence.text() == "Seen in 3 digests, upvotes 5 → 47"
    assert len(view.chart.data) == 3


def test_status_tag_note_keys_and_esc(window, seed_lib, qtbot):
    active(window, qtbot)
    pid = select_row(window, 2)
    window.feed.view.setFocus()
    for key, status in ((Qt.Key.Key_T, "to-read"), (Qt.Key.Key_W, "reading"),
                        (Qt.Key.Key_U, "unread"), (Qt.Key.Key_R, "read")):
        qtbot.keyClick(window.feed.view, key)
        assert seed_lib.paper(pid)["status"] == status
    qtbot.keyClick(window.feed.view, Qt.Key.Key_G)
    assert window.detail.tag_entry.hasFocus()
    window.feed.view.setFocus()
    qtbot.keyClick(window.feed.view, Qt.Key.Key_N)
    assert window.detail.note.hasFocus()
    qtbot.keyClicks(window.search_bar.edit, "scaling")
    qtbot.waitUntil(lambda: window.feed.query == "scaling")
    qtbot.keyClick(window.search_bar.edit, Qt.Key.Key_Escape)
    assert window.search_bar.edit.text() == "" and window.feed.query == ""
    assert window.feed.view.hasFocus()
    # every one of them is in a menu and on the shortcuts sheet
    sheet = keyboard.show_sheet(window)
    qtbot.addWidget(sheet)
    named = {what for _where, _keys, what in sheet.entries}
    for name in ("mark_to_read", "mark_reading", "mark_unread", "mark_read", "add_tag",
                 "write_note", "triage", "clear_search", "next", "previous", "queue_up"):
        action = window.actions_by_name[name]
        assert action.text().replace("&", "").rstrip("…") in named
        assert any(action in m.actions() for m in window.menuBar().findChildren(QMenu))


def test_tab_goes_search_table_then_detail_fields(window, seed_lib, qtbot):
    active(window, qtbot)
    select_row(window, 0)
    window.search_bar.edit.setFocus()
    seen = [QApplication.focusWidget()]
    for _ in range(4):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        seen.append(QApplication.focusWidget())
    d = window.detail
    assert seen == [window.search_bar.edit, window.feed.view, d.status, d.tag_entry, d.note]
    qtbot.keyClick(d.note, Qt.Key.Key_Backtab)
    assert QApplication.focusWidget() is d.tag_entry


def test_ctrl_z_in_the_note_undoes_typing_not_the_library(window, seed_lib, qtbot):
    active(window, qtbot)
    pid = select_row(window, 0)
    window.detail.note.setFocus()
    qtbot.keyClicks(window.detail.note, "first thoughts")
    window.detail.flush_note()  # autosaved: "Add note"
    qtbot.keyClicks(window.detail.note, " and more")
    stack = window.undo_stack.count()
    qtbot.keyClick(window.detail.note, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    text = window.detail.note.toPlainText()
    assert text.startswith("first thoughts") and text != "first thoughts and more"
    assert window.undo_stack.count() == stack  # the library's undo did not run
    assert seed_lib.paper(pid)["notes"][0]["text"] == "first thoughts"
    qtbot.keyClick(window.detail.note, Qt.Key.Key_Z,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert window.detail.note.toPlainText() == "first thoughts and more"
    window.feed.view.setFocus()  # leaving the box saves it
    assert seed_lib.paper(pid)["notes"][0]["text"] == "first thoughts and more"
    labels = [window.undo_stack.text(i) for i in range(window.undo_stack.count())]
    assert not any("Delete" in label for label in labels)


def test_rows_context_menu_has_the_frequent_actions(window, seed_lib, qtbot):
    rect = window.feed.view.visualRect(window.feed.model.index(3, 0))
    menu = keyboard.row_menu(window, rect.center())
    assert window.feed.current_id() == window.feed.model.paper_id(3)
    texts = [a.text().replace("&", "") for a in menu.actions()]
    assert "Add to the reading queue (to read)" in texts and "Add a tag…" in texts
    assert "Move to the top of the queue" in texts
    menu.close()


def test_upvote_chart_in_the_detail_pane(make_window, lib, qtbot, tmp_path):
    lib.import_paths(growing_digests(tmp_path / "g", papers=3, days=4))
    lib.import_paths([write_digest(tmp_path, "late.txt", 4, 30, {3: 300})])
    window = make_window(lib)
    pid = lib.search('"Task 3"').ids[0]
    window.feed.select_ids([pid], pid)
    chart = window.detail.chart
    assert chart.isVisible()
    assert [v for _d, v in chart.data] == [5, 68, 131, 194, 300]
    # the Momentum column sorts by upvotes gained per day, in SQL
    window.feed.view.sortByColumn(MOMENTUM, Qt.SortOrder.DescendingOrder)
    assert window.feed.model.ids() == lib.search(sort="momentum", descending=True).ids
    # Task 2 gains 6 a day; Task 3's late sighting (300 on Apr 30) brings it to 4.9
    assert window.feed.model.index(0, MOMENTUM).data() == "6.0"
    assert window.feed.model.index(window.feed.model.row_of(pid), MOMENTUM).data() == "4.9"
    spots = chart.positions()
    assert all(a.x() < b.x() and a.y() > b.y() for a, b in itertools.pairwise(spots))

"""Errors reach people as readable messages: the excepthook dialog, a busy library."""

from __future__ import annotations

import sqlite3

from paperdesk.gui.main import show_error

from .conftest import select_row


def test_an_unexpected_error_opens_a_dialog_with_the_details(qtbot):
    try:
        {}["missing"]
    except KeyError as exc:
        box = show_error(type(exc), exc, exc.__traceback__)
    qtbot.addWidget(box)
    assert box.isVisible()
    assert box.text() == "Something went wrong: KeyError: 'missing'"
    assert "Traceback" in box.detailedText()
    box.close()


def test_a_busy_library_is_a_message_and_nothing_changes(window, seed_lib):
    pid = select_row(window, 0)
    seed_lib.db.execute("PRAGMA busy_timeout = 100")  # give up quickly rather than after 5 s
    other = sqlite3.connect(seed_lib.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another program holds the write lock
    try:
        window.rate_selected(5)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert "busy" in window.statusBar().currentMessage()
    assert "Traceback" not in window.statusBar().currentMessage()
    assert seed_lib.paper(pid)["rating"] == 0
    assert window.undo_stack.count() == 0

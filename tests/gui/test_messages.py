"""The status bar's one message area (issue 39, "What broke" 5): the newest line wins
at once, the one it replaced before it could be read comes back after it; the count
line is never drawn beside or under a message; a warning put right goes, whether
shown or waiting."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from paperdesk.gui.common.message_line import READ_MS


def texts_in_the_message_area(window) -> list[str]:
    """What is drawn where messages go: the status bar's message, and the texts of its
    visible non-permanent labels (the count line)."""
    bar = window.statusBar()
    drawn = [bar.currentMessage()] if bar.currentMessage() else []
    drawn += [w.text() for w in bar.findChildren(QLabel)
              if w.isVisible() and w is window.feed.count_label]
    return drawn


def test_a_line_replaced_before_it_could_be_read_comes_back(window, qtbot):
    ctx = window.context
    qtbot.wait(READ_MS)  # the start-up lines are read
    ctx.show_message("Today: fetched 2026-12-01: 18 papers, 3 new", 15000)
    ctx.show_message("Imported 1 file: 3 papers", 15000)
    assert texts_in_the_message_area(window) == ["Imported 1 file: 3 papers"]
    qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith("Today:"),
                    timeout=4 * READ_MS)
    assert texts_in_the_message_area(window) == [
        "Today: fetched 2026-12-01: 18 papers, 3 new"]


def test_a_warning_put_right_goes_even_while_waiting(window, qtbot):
    ctx = window.context
    ctx.show_message("Copied 2 citations", 15000)
    ctx.notify("no paper with id 5")
    ctx.show_message("Rated 1 paper", 15000)  # the warning waits behind it
    ctx.clear_warning()
    qtbot.wait(READ_MS + 500)
    assert "⚠" not in window.statusBar().currentMessage()
    assert all("⚠" not in m for m, _ms in ctx.messages.waiting)


def test_the_count_line_is_hidden_while_a_message_shows(window, qtbot):
    window.context.show_message("Exported 193 papers", 3000)
    assert texts_in_the_message_area(window) == ["Exported 193 papers"]
    qtbot.waitUntil(lambda: window.statusBar().currentMessage() == "", timeout=4 * READ_MS)
    assert texts_in_the_message_area(window) == [window.feed.count_label.text()]

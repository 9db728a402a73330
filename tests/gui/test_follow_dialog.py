"""File > Follow on arXiv (issue 39, build 4 "the same in the window"): the dialog lists
what ``lib.follows`` holds (what `paperdesk follow` keeps), follows a category or an
author, refuses a bad name with one line and the list as it was, unfollows the
selected."""

from __future__ import annotations

from PySide6.QtWidgets import QListWidget


def kinds_values(lib) -> list[tuple[str, str]]:
    return [(r["kind"], r["value"]) for r in lib.follows.listed()]


def test_follow_list_and_unfollow_in_the_window(window, seed_lib, qtbot, tmp_path):
    seed_lib.follows.add("category", ["stat.ML"])  # as `paperdesk follow stat.ML` would
    window.actions_by_name["follows"].trigger()
    dialog = window.context.features["follows"].dialog
    qtbot.addWidget(dialog)
    assert dialog.isVisible()
    assert [dialog.list.item(i).text() for i in range(dialog.list.count())] == [
        "Category: stat.ML"]
    qtbot.keyClicks(dialog.entry, "cs.CL")
    dialog.follow_button.click()
    assert ("category", "cs.CL") in kinds_values(seed_lib)
    assert "next Today" in dialog.message.text()
    dialog.kind.setCurrentIndex(dialog.kind.findData("author"))
    dialog.entry.setText("Ada Lovelace")
    dialog.follow()
    assert ("author", "Ada Lovelace") in kinds_values(seed_lib)
    assert dialog.list.count() == 3
    before = kinds_values(seed_lib)
    dialog.kind.setCurrentIndex(dialog.kind.findData("category"))
    dialog.entry.setText("cs CL; DROP")
    assert dialog.follow() == []
    assert dialog.message.text().startswith("⚠ ") and "not an arXiv category" in (
        dialog.message.text())
    assert kinds_values(seed_lib) == before and dialog.list.count() == 3
    assert dialog.entry.text() == "cs CL; DROP"  # nothing typed is lost
    stat = next(dialog.list.item(i) for i in range(dialog.list.count())
                if dialog.list.item(i).text() == "Category: stat.ML")
    dialog.list.setSelectionMode(QListWidget.SelectionMode.ExtendedSelection)
    stat.setSelected(True)
    assert dialog.unfollow_button.isEnabled()
    assert dialog.unfollow() == ["stat.ML"]
    assert ("category", "stat.ML") not in kinds_values(seed_lib)
    assert dialog.list.count() == 2 and "No longer following stat.ML" in dialog.message.text()

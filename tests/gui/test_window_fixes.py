"""Undo import, digests told apart in the sidebar, .bib in the import filter,
full titles in the compare table, an error that leaves the search box its room."""

from __future__ import annotations

import shutil

from PySide6.QtCore import Qt

from paperdesk.gui import actions
from paperdesk.gui.duplicates.compare_table import KEYS, CompareTable
from tests.conftest import SEED_PAPERS
from tests.digest_files import write_digest

from .conftest import select_row, sidebar_counts


def test_undo_last_import_keeps_later_work(window, seed_lib, qtbot, tmp_path):
    action = window.actions_by_name["undo_import"]
    assert not action.isEnabled()
    window.context.importer.start([write_digest(tmp_path, "new.txt", 6, 1,
                                                {n: n for n in range(10)})])
    qtbot.waitUntil(lambda: window.feed.model.rowCount() == 203, timeout=20000)
    window.context.importer.report.accept()
    assert action.isEnabled()
    new = seed_lib.search('"Attention for Task"').ids
    window.edit(seed_lib.curation.set_rating, [new[0]], 5)
    old = seed_lib.search("scaling").ids[0]
    window.edit(seed_lib.curation.add_tags, [old], ["keeper"])
    action.trigger()
    assert window.feed.model.rowCount() == SEED_PAPERS and seed_lib.stats()["digests"] == 5
    assert seed_lib.stats()["trash"] == 1  # the rated one, kept in the trash
    assert seed_lib.paper(old)["tags"] == ["keeper"]
    assert "Import undone: removed 9 papers" in window.statusBar().currentMessage()
    assert not action.isEnabled()
    window.undo_stack.undo()  # and the undo of it brings the import back
    qtbot.waitUntil(lambda: window.feed.model.rowCount() == 203)
    assert seed_lib.stats()["digests"] == 6


def test_digests_of_one_day_differ_in_the_sidebar(window, seed_lib, seeds, tmp_path):
    copy = tmp_path / "copy-of-first.txt"
    shutil.copy(seeds[1], copy)
    with copy.open("a", encoding="utf-8") as f:
        f.write("\n")  # another file, the same date
    assert seed_lib.import_paths([copy])[0].status == "imported"
    window.reload_all()
    labels = [label for label in sidebar_counts(window) if seeds[1].name in label
              or "copy-of-first" in label]
    assert len(labels) == 2 and labels[0].split(" · ")[0] == labels[1].split(" · ")[0]
    assert labels[0] != labels[1]


def test_import_dialog_lists_bib_files():
    first = actions.DIGEST_FILTER.split(";;")[0]
    assert "*.bib" in first and "*.txt" in first


def test_compare_table_shows_whole_titles(qtbot, seed_lib):
    table = CompareTable()
    qtbot.addWidget(table)
    table.resize(520, 600)
    table.show()
    ids = seed_lib.search(sort="title").ids[:2]
    long = "A Very Long Title About Scaling Laws For Neural Machine Translation " * 3
    seed_lib.db.execute("UPDATE papers SET title = ? WHERE id = ?", [long + "Multilingual", ids[0]])
    seed_lib.db.execute("UPDATE papers SET title = ? WHERE id = ?", [long + "Bilingual", ids[1]])
    table.set_group(seed_lib, ids)
    row = KEYS.index("title")
    item = table.item(row, 0)
    assert item.toolTip().startswith(long + "Multilingual")
    lines = table.fontMetrics().lineSpacing()
    needed = table.fontMetrics().boundingRect(
        0, 0, table.columnWidth(0) - 8, 10000, int(Qt.TextFlag.TextWordWrap), item.text()).height()
    assert needed > 2 * lines and table.rowHeight(row) >= needed  # every line of it


def test_search_error_leaves_the_box_its_width(window, qtbot):
    width = window.search_bar.edit.width()
    window.search_bar.edit.setText('"' + "x" * 5 + " tag:" + "y" * 300)
    qtbot.waitUntil(lambda: window.search_bar.message.isVisible())
    window.search_bar.show_error("a very long message " * 20)
    qtbot.wait(10)
    assert window.search_bar.edit.width() >= width
    assert window.search_bar.message.toolTip().startswith("⚠ a very long message")


def test_select_then_keyboard_in_status_view(window, seed_lib, qtbot):
    pid = select_row(window, 3)
    window.sidebar.select(("status", "unread"))
    assert window.feed.current_id() == pid

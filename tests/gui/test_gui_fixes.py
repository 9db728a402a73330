"""Slips a daily user trips on: undo in triage, focus after tagging, Tab in the note,
the selection after a delete, the detail pane's scroll."""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QStyleOptionViewItem

from paperdesk.core.importing.file_report import IMPORTED, FileReport
from paperdesk.gui import keyboard
from paperdesk.gui.common.geometry import first_size, share_panes
from paperdesk.gui.importing.import_report import ImportReport, details
from paperdesk.gui.panes.upvote_chart import UpvoteChart
from tests.digest_files import growing_digests

from .conftest import active, first_digest_triage, select_row


def test_ctrl_z_in_triage_undoes_and_goes_back(window, seed_lib, qtbot):
    view, ids, _digest = first_digest_triage(window, seed_lib, qtbot)
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
    view, ids, _digest = first_digest_triage(window, seed_lib, qtbot)
    qtbot.keyClick(view, Qt.Key.Key_S)
    assert seed_lib.paper(ids[0])["status"] == "unread" and view.index == 1
    assert "Ctrl+Z" in view.legend.text() and "unread" in view.legend.text()
    sheet = keyboard.show_sheet(window)
    qtbot.addWidget(sheet)
    assert ("Triage", "Ctrl+Z", "Undo") in sheet.entries


def test_enter_or_esc_in_the_tag_box_goes_back_to_the_table(window, seed_lib, qtbot):
    active(window, qtbot)
    pid = select_row(window, 2)
    window.feed.view.setFocus()
    qtbot.keyClick(window.feed.view, Qt.Key.Key_G)
    assert window.detail.tag_entry.hasFocus()
    qtbot.keyClicks(window.detail.tag_entry, "later")
    qtbot.keyClick(window.detail.tag_entry, Qt.Key.Key_Return)
    assert "later" in seed_lib.paper(pid)["tags"]
    assert window.feed.view.hasFocus()
    qtbot.keyClick(window.feed.view, Qt.Key.Key_T)  # a command, not typing
    assert seed_lib.paper(pid)["status"] == "to-read"
    assert window.detail.tag_entry.text() == ""
    qtbot.keyClick(window.feed.view, Qt.Key.Key_G)
    qtbot.keyClicks(window.detail.tag_entry, "xx")
    qtbot.keyClick(window.detail.tag_entry, Qt.Key.Key_Escape)
    assert window.feed.view.hasFocus() and window.detail.tag_entry.text() == ""
    qtbot.keyClick(window.feed.view, Qt.Key.Key_W)
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
    window.feed.view.scrollTo(window.feed.model.index(row, 0))
    bar = window.feed.view.verticalScrollBar()
    scroll = bar.value()
    assert scroll > 0
    following = window.feed.model.paper_id(row + 1)
    window.feed.view.setFocus()
    qtbot.keyClick(window.feed.view, Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: window.feed.model.row_of(gone) is None)
    assert window.feed.selected_ids() == [following]
    assert window.feed.view.currentIndex().row() == row
    assert abs(bar.value() - scroll) <= 2
    assert window.detail.ids == [following]
    window.undo_stack.undo()
    qtbot.waitUntil(lambda: window.feed.model.row_of(gone) is not None)
    assert window.feed.selected_ids() == [following]
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


def test_the_table_keeps_most_of_a_narrow_window(window, seed_lib, qtbot):
    """At QT_SCALE_FACTOR=2 a 1600x1000 screen is 800x500: the table keeps its room."""
    screen = window.screen().availableGeometry()
    assert first_size(window).width() == min(screen.width(), 1440)  # all of a small screen
    window.resize(800, 480)
    qtbot.waitUntil(lambda: sum(window.splitter.sizes()) < 800)
    window.splitter.setSizes([300, 100, 500])  # restored from a wide screen
    share_panes(window.splitter)
    side, table, detail = window.splitter.sizes()
    assert table >= 0.45 * (side + table + detail)
    assert side >= 140 and detail >= 200


def test_sidebar_shortens_the_name_not_the_count(window, seed_lib, qtbot):
    sidebar = window.sidebar
    item = next(i for i in sidebar.entries() if i.text(0).startswith("20"))
    index = sidebar.indexFromItem(item)
    option = QStyleOptionViewItem()
    option.initFrom(sidebar)
    option.rect = QRect(0, 0, 130, 20)
    sidebar.itemDelegate().initStyleOption(option, index)
    count = item.text(0).rpartition("  (")[2]
    assert option.text.endswith(f"  ({count}") and "…" in option.text
    assert option.fontMetrics.horizontalAdvance(option.text) <= 130


def test_import_report_fits_the_screen_and_names_known_papers(qtbot, tmp_path):
    long = "2026-03-14_" + "very_long_digest_file_name_" * 6 + ".txt"
    reports = [FileReport(str(tmp_path / long), long, IMPORTED, entries=40, new_papers=12,
                          merged=28, warnings=["line 3: " + "a warning that goes on " * 12])
               for _ in range(3)]
    report = ImportReport(reports)
    qtbot.addWidget(report)
    report.show()
    qtbot.waitExposed(report)
    screen = report.screen().availableGeometry()
    assert screen.contains(report.frameGeometry())
    close = report.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Close)
    assert report.rect().contains(QRect(close.mapTo(report, close.rect().topLeft()),
                                        close.size()))
    assert report.summary.text() == "3 files, 36 new papers, 84 already known"
    assert report.table.horizontalHeaderItem(3).text() == "Already known"
    assert report.table.columnWidth(0) <= 240


def test_import_report_counts_one_entry_in_the_singular(tmp_path):
    report = FileReport(str(tmp_path / "a.bib"), "a.bib", IMPORTED, entries=1, new_papers=1)
    assert details(report) == "1 entry"


def test_the_undo_of_an_import_is_named_once(window, seed_lib, qtbot, tmp_path):
    files = growing_digests(tmp_path / "g", papers=3, days=1)
    window.context.importer.start(files)
    qtbot.waitUntil(lambda: window.context.importer.report is not None, timeout=20000)
    window.context.importer.report.close()
    window.context.features["imports"].undo_last()
    undo_text = window.actions_by_name["undo"].text().replace("&", "")
    # Named by what it did (the import removed), so Undo never reads as removing it.
    assert undo_text.startswith("Undo removal of the import") and "Undo Undo" not in undo_text
    window.actions_by_name["undo"].trigger()
    assert window.actions_by_name["redo"].text().replace("&", "").startswith(
        "Redo removal of the import")


def test_the_charts_labels_line_up_with_its_points(qtbot):
    chart = UpvoteChart()
    qtbot.addWidget(chart)
    chart.resize(280, 120)
    for days in ([("2025-03-01", 5)], [("2025-03-01", 5), ("2025-03-08", 41),
                                       ("2025-03-15", 30)]):
        chart.set_sightings([{"digest_date": d, "upvotes": v} for d, v in days])
        spots = chart.positions()
        labels = chart.labels()
        values = [v for _d, v in chart.data]
        for kind, text, rect in labels:
            if kind == "value":
                point = spots[values.index(int(text))]
                assert abs(rect.center().y() - point.y()) < 1
            else:
                point = spots[0] if text == "Mar 01" else spots[-1]
                assert rect.left() <= point.x() <= rect.right()
                assert rect.left() >= 0 and rect.right() <= chart.width()
        assert {t for k, t, _r in labels if k == "value"} == {str(max(values)),
                                                               str(min(values))}


def test_a_warning_put_right_leaves_the_status_bar(window, seed_lib, qtbot):
    bar = window.statusBar()
    window.feed.set_query("rating:>>")
    assert bar.currentMessage().startswith("⚠")
    window.feed.set_query("scaling")
    assert bar.currentMessage() == ""
    window.context.notify("the file is gone")
    pid = select_row(window, 0)
    window.edit(seed_lib.curation.set_rating, [pid], 3)  # an edit that went in
    assert bar.currentMessage() == ""
    window.context.show_message("Copied it")
    window.feed.set_query("")
    assert bar.currentMessage() == "Copied it"  # only warnings go

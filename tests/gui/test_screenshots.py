"""Screenshots of the window and the import report.

They are written to the test's temporary folder; with PAPERDESK_SCREENSHOTS=1
they also replace docs/screenshots/main-window.png and import-report.png.
"""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, Qt

from paperdesk.gui.table.paper_model import UPVOTES

from .screenshots import save_screenshot
from .test_import_drop import drop


def _curate(lib) -> int:
    """Give the seed library some ratings, tags, statuses and a note, like a used one."""
    papers = lib.papers(lib.search(sort="upvotes", descending=True).ids)
    showcase = max(papers, key=lambda p: (p["upvotes"] is not None, p["seen_count"],
                                          p["organization"] is not None, p["upvotes"] or 0))
    cur = lib.curation
    top = [p["id"] for p in papers[:12]]
    cur.set_rating(top[:3], 5)
    cur.set_rating(top[3:7], 4)
    cur.set_rating([showcase["id"]], 4)
    cur.add_tags(top[:5], ["scaling-laws"])
    cur.add_tags(top[2:9], ["inference"])
    cur.add_tags([showcase["id"]], ["to-cite"])
    cur.set_status(top[:4], "read")
    cur.set_status(top[4:6], "reading")
    cur.set_status(top[6:10], "to-read")
    cur.add_note(showcase["id"], "Compare with the Chinchilla fits; their appendix has the "
                                 "raw numbers.")
    cur.save_search("Top rated inference", "inference")
    return showcase["id"]


def test_main_window_screenshot(seed_lib, make_window, tmp_path, qtbot):
    pid = _curate(seed_lib)
    window = make_window(seed_lib)
    window.resize(1440, 820)
    window.feed.view.sortByColumn(UPVOTES, Qt.SortOrder.DescendingOrder)
    row = window.feed.model.row_of(pid)
    window.feed.view.selectionModel().setCurrentIndex(
        window.feed.model.index(row, 0),
        QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
    window.feed.view.scrollTo(window.feed.model.index(row, 0))
    qtbot.wait(50)
    assert window.detail.ids == [pid]
    save_screenshot(window, tmp_path, "main-window.png")


def test_import_report_screenshot(lib, seeds, make_window, tmp_path, qtbot):
    lib.import_paths(seeds[:2])
    window = make_window(lib)
    junk = tmp_path / "reading-notes.docx"
    junk.write_bytes(b"PK\x03\x04" + bytes(range(256)) * 4)
    mime = drop(window, [*seeds, junk])
    qtbot.waitUntil(lambda: window.context.importer.report is not None, timeout=30000)
    report = window.context.importer.report
    assert [r[1] for r in report.rows()].count("Already imported") == 2
    qtbot.wait(50)
    save_screenshot(report, tmp_path, "import-report.png")
    assert mime.hasUrls()

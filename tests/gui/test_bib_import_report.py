"""The window's import report names each merged .bib entry and each skipped one."""

from __future__ import annotations

from paperdesk.gui.importing.import_report import ImportReport
from tests.gui.screenshots import save_screenshot


def test_report_lists_merges_and_skips(lib, tmp_path, qtbot):
    first = tmp_path / "first.bib"
    first.write_text("@article{orig, title = {One}, doi = {10.1/one}, year = 2001}\n")
    lib.import_paths([first])
    second = tmp_path / "second.bib"
    second.write_text("@article{again, title = {One, printed}, doi = {10.1/one}, year = 2001}\n"
                      "@article{broken,\n title = {never closed\n\n"
                      "@article{alike, title = {One}, year = 1999}\n")
    reports = lib.import_paths([second])
    dialog = ImportReport(reports)
    qtbot.addWidget(dialog)
    [row] = dialog.rows()
    assert row[:4] == ["second.bib", "Imported", "1", "1"]
    assert "merged again -> orig (paper 1; same DOI 10.1/one)" in row[4]
    assert "line 2: skipped an entry that cannot be read" in row[4]
    dialog.resize(820, 260)
    dialog.show()
    qtbot.wait(50)
    save_screenshot(dialog, tmp_path, "bib-import-report.png")

"""The report after an import: one row per file, with what happened to it.

"Already known" counts the entries that matched a paper the library had (or an
earlier entry of the same import): their details went into that paper, no new
paper was made. The dialog fits its screen at any scale: the summary wraps, long
file names are cut (whole in their tooltip), the details wrap, the table scrolls.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from paperdesk.core.api import ALREADY, CANCELLED, ERROR, IMPORTED, SKIPPED, FileReport
from paperdesk.gui.common.geometry import fit_to_screen

RESULT = {IMPORTED: "Imported", ALREADY: "Already imported", ERROR: "Not imported",
          SKIPPED: "Skipped", CANCELLED: "Cancelled"}
COLUMNS = ["File", "Result", "New papers", "Already known", "Details"]
KNOWN_TIP = ("Entries that matched a paper already in the library (or an earlier entry of "
             "this import); their details were added to it, no new paper was made")
FILE_WIDTH = 240  # at most, for the file name column


def summary(reports: Sequence[FileReport]) -> str:
    new = sum(r.new_papers for r in reports)
    merged = sum(r.merged for r in reports)
    failed = sum(r.failed for r in reports)
    parts = [f"{len(reports)} file{'s' if len(reports) != 1 else ''}",
             f"{new} new paper{'s' if new != 1 else ''}", f"{merged} already known"]
    if failed:
        parts.append(f"{failed} not imported")
    return ", ".join(parts)


def details(report: FileReport) -> str:
    if report.error:
        return report.error
    lines = [f"{report.entries} entr{'y' if report.entries == 1 else 'ies'}"] if (
        report.status == IMPORTED) else []
    merged = [f"merged {line}" for line in report.merge_lines()]
    return "; ".join(lines + merged + list(report.warnings))


class ImportReport(QDialog):
    def __init__(self, reports: Sequence[FileReport], parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Import report")
        self.reports = list(reports)
        self.summary = QLabel(summary(self.reports))
        self.summary.setWordWrap(True)
        self.table = QTableWidget(len(self.reports), len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(True)
        for row, r in enumerate(self.reports):
            values = [r.name, RESULT.get(r.status, r.status), str(r.new_papers), str(r.merged),
                      details(r)]
            for col, value in enumerate(values):
                item = QTableWidgetItem(value)
                item.setToolTip(r.path if col == 0 else value)
                self.table.setItem(row, col, item)
        known = self.table.horizontalHeaderItem(3)
        if known is not None:
            known.setToolTip(KNOWN_TIP)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        header = self.table.horizontalHeader()
        for col in range(1, len(COLUMNS) - 1):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        self.table.resizeColumnToContents(0)
        header.resizeSection(0, min(FILE_WIDTH, header.sectionSize(0)))
        header.setSectionResizeMode(len(COLUMNS) - 1, QHeaderView.ResizeMode.Stretch)
        self.table.resizeRowsToContents()
        self._fitted = False
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.resize(820, 160 + 30 * min(len(self.reports), 12))

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._fitted:  # never wider or taller than the screen; Close in reach
            self._fitted = True
            fit_to_screen(self)
            self.table.resizeRowsToContents()

    def rows(self) -> list[list[str]]:
        """The table's text, row by row."""
        return [[item.text() if (item := self.table.item(r, c)) is not None else ""
                 for c in range(len(COLUMNS))] for r in range(self.table.rowCount())]

"""The Trash: deleted papers, to restore or to remove for good.

Delete (the key, or Paper > Move to Trash) moves the selected papers here;
they keep their tags, notes and sightings. Restore and Empty trash are core
edits on the undo stack like any other, so even emptying can be undone
within the session.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from paperdesk.gui.common import dialogs

if TYPE_CHECKING:
    from paperdesk.gui.context import Context

SOURCE = ("trash", None)
MAX_ROWS = 1000  # rows listed; Restore all and Empty act on every paper in the trash
ID_ROLE = Qt.ItemDataRole.UserRole
COLUMNS = ["Title", "Year", "Deleted"]


def trash_count(context: Context) -> int:
    return context.lib.trash.count()


class TrashView(QWidget):
    def __init__(self, context: Context) -> None:
        super().__init__()
        self.context = context
        self.heading = QLabel()
        font = self.heading.font()
        font.setPointSizeF(font.pointSizeF() * 1.2)
        font.setBold(True)
        self.heading.setFont(font)
        self.note = QLabel("Papers in the trash keep their tags, notes and sightings until the "
                           "trash is emptied. They are left out of searches and exports.")
        self.note.setWordWrap(True)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setAlternatingRowColors(True)
        self.table.setShowGrid(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col in (1, 2):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.restore_button = QPushButton("Restore")
        self.restore_button.clicked.connect(self.restore_selected)
        self.restore_all_button = QPushButton("Restore all")
        self.restore_all_button.clicked.connect(self.restore_all)
        self.empty_button = QPushButton("Empty trash…")
        self.empty_button.clicked.connect(self.empty)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        for button in (self.restore_button, self.restore_all_button, self.empty_button):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.note)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)

    def reload(self) -> None:
        rows = self.context.lib.trash.listing(MAX_ROWS)
        total = trash_count(self.context)
        self.table.setRowCount(len(rows))
        for row, paper in enumerate(rows):
            year, deleted = paper["year"], paper["deleted_at"]
            for col, value in enumerate([paper["title"], "" if year is None else str(year),
                                         (deleted or "").replace("T", " ")[:16]]):
                item = QTableWidgetItem(value)
                item.setData(ID_ROLE, paper["id"])
                self.table.setItem(row, col, item)
        more = f" (the newest {len(rows)} listed)" if total > len(rows) else ""
        self.heading.setText(f"Trash: {total} paper{'s' if total != 1 else ''}{more}"
                             if total else "The trash is empty")
        self._update_buttons()

    def ids(self) -> list[int]:
        return [self.table.item(r, 0).data(ID_ROLE) for r in range(self.table.rowCount())]

    def selected_ids(self) -> list[int]:
        rows = sorted(i.row() for i in self.table.selectionModel().selectedRows())
        return [self.table.item(r, 0).data(ID_ROLE) for r in rows]

    def _update_buttons(self) -> None:
        self.restore_button.setEnabled(bool(self.table.selectionModel().selectedRows()))
        self.restore_all_button.setEnabled(self.table.rowCount() > 0)
        self.empty_button.setEnabled(self.table.rowCount() > 0)

    def restore_selected(self) -> None:
        if ids := self.selected_ids():
            self.context.ops.edit(self.context.lib.trash.restore, ids)

    def restore_all(self) -> None:
        if ids := self.context.lib.trash.ids():
            self.context.ops.edit(self.context.lib.trash.restore, ids)

    def empty(self) -> None:
        total = trash_count(self.context)
        if total and dialogs.confirm(
                self, "Empty the trash",
                f"Remove the {total} paper{'s' if total != 1 else ''} in the trash for good, "
                "with their tags, notes and sightings? Edit > Undo can still bring them back "
                "until PaperDesk is closed.", "Empty trash"):
            self.context.ops.edit(self.context.lib.trash.empty)

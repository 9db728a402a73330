"""The merge history: every merge, newest first, and Undo for any of them.

Undoing a merge here is the core's unmerge (it works after a restart, from the
data stored with the merge); the unmerge itself goes on the undo stack, so
Edit > Undo merges the papers again. In a shared library the merges made on other
computers follow (``lib.share.merges``): undoing one takes it apart in the shared
library (``lib.share.unmerge``, an exchange on a worker; merging the papers again
undoes it).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from paperdesk.gui.context import context_of

COLUMNS = ["Merge", "When", "Kept paper", "Merged papers", "State"]


class MergeHistory(QDialog):
    """Every merge; ``owner`` is the window's context (or the window)."""

    def __init__(self, owner: Any, parent: QWidget | None = None) -> None:
        context = context_of(owner)
        super().__init__(parent or context.widget)
        self.context = context
        self.setWindowTitle("Merge history")
        self.entries: list[dict[str, Any]] = []
        self.summary = QLabel()
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        header = self.table.horizontalHeader()
        for col in range(len(COLUMNS)):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.table.itemSelectionChanged.connect(self._update_button)
        self.undo_button = QPushButton("Undo this merge")
        self.undo_button.clicked.connect(self.unmerge_selected)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.addButton(self.undo_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)
        self.resize(860, 420)
        self.reload()

    def reload(self) -> None:
        lib = self.context.lib
        self.entries = lib.duplicates.history() + _elsewhere(lib)
        titles = {p["id"]: p["title"] for p in lib.papers([e["kept_id"] for e in self.entries])}
        self.table.setRowCount(len(self.entries))
        for row, e in enumerate(self.entries):
            kept = titles.get(e["kept_id"])
            values = [str(e["id"]), (e["created"] or "").replace("T", " ")[:16],
                      f"{e['kept_id']}: {kept}" if kept else f"{e['kept_id']} (gone)",
                      ", ".join(e["titles"]) if "titles" in e else
                      ", ".join(map(str, e["merged_ids"])),
                      "undone" if e["undone"] else "merged on another computer"
                      if "titles" in e else "merged"]
            for col, value in enumerate(values):
                item = QTableWidgetItem(value)
                item.setToolTip(e.get("label") or value)
                self.table.setItem(row, col, item)
        undone = sum(e["undone"] for e in self.entries)
        count = len(self.entries)
        self.summary.setText(f"{count} merge{'' if count == 1 else 's'}"
                             + (f", {undone} undone" if undone else ""))
        self._update_button()

    def select(self, merge_id: int) -> bool:
        for row, e in enumerate(self.entries):
            if e["id"] == merge_id:
                self.table.selectRow(row)
                return True
        return False

    def selected(self) -> dict[str, Any] | None:
        rows = self.table.selectionModel().selectedRows()
        return self.entries[rows[0].row()] if rows else None

    def _update_button(self) -> None:
        entry = self.selected()
        self.undo_button.setEnabled(entry is not None and not entry["undone"])

    def unmerge_selected(self) -> bool:
        """Take the selected merge apart; True when it was."""
        entry = self.selected()
        if entry is None or entry["undone"]:
            return False
        if "titles" in entry:  # made on another computer: taken apart in the shared library
            kept = entry["kept_id"]
            # Not on the undo stack: undoing an exchange takes back what it brought,
            # which for a paper brought back is deleting it on every computer; merging
            # the papers again is the way back.
            self.context.ops.run("Unmerging", lambda lib, _p, _c: lib.share.unmerge(kept),
                                 lambda _changes: self.reload())
            return True
        changes = self.context.ops.edit(self.context.lib.duplicates.unmerge, entry["id"])
        self.reload()
        self.select(entry["id"])
        return changes is not None


def _elsewhere(lib: Any) -> list[dict[str, Any]]:
    """The shared library's merges into papers that no merge made here holds."""
    if lib.share.where is None:
        return []
    local = {e["kept_id"] for e in lib.duplicates.history() if not e["undone"]}
    return [{"id": "shared", "created": None, "kept_id": m["kept_id"], "merged_ids": [],
             "titles": [p["title"] or p["uid"] for p in m["merged"]], "undone": False,
             "label": "merged on another computer"}
            for m in lib.share.merges() if m["kept_id"] not in local]

"""Help > Keyboard shortcuts: every key the window answers, read from its actions."""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTableWidget, QTableWidgetItem, QVBoxLayout

OTHER_KEYS = [
    ("Tab / Shift+Tab", "Search box → table → status → tags → note, and back"),
    ("Esc (search box)", "Clear the search"),
    ("Ctrl+Z in a text box", "Undo the typing there (the library's undo elsewhere)"),
    ("Ctrl+A", "Select every listed paper"),
    ("Menu key / right click", "The rows' context menu"),
]


def rows(actions: dict[str, QAction],
         view_keys: list[tuple[str, list[tuple[str, str]]]]) -> list[tuple[str, str, str]]:
    """(area, keys, what) for every action that has a key, then the other keys, then
    the keys of the views features open (``(where, [(keys, what)])``)."""
    out = []
    for action in actions.values():
        key = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        if key:
            out.append(("Window", key, action.text().replace("&", "").rstrip("…")))
    out.sort(key=lambda r: r[2].casefold())
    out += [("Window", k, w) for k, w in OTHER_KEYS]
    out += [(where, k, w) for where, keys in view_keys for k, w in keys]
    return out


class ShortcutsSheet(QDialog):
    def __init__(self, actions: dict[str, QAction], view_keys, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        self.entries = rows(actions, view_keys)
        table = QTableWidget(len(self.entries), 3)
        table.setHorizontalHeaderLabels(["Where", "Keys", "Does"])
        for r, entry in enumerate(self.entries):
            for c, text in enumerate(entry):
                table.setItem(r, c, QTableWidgetItem(text))
        table.verticalHeader().hide()
        table.horizontalHeader().setStretchLastSection(True)
        table.resizeColumnsToContents()
        table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table = table
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(table)
        layout.addWidget(buttons)
        self.resize(620, 560)

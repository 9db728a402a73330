"""Help > Keyboard shortcuts: every key the window answers, read from its actions,
grouped by area in the order a person learns them (moving around first, the files
of the library last), never sorted by action name.

An action's text on the sheet is what it does, not what it would do now: Undo and
Redo read "Undo the last edit", never the undo stack's current "Undo Rate 3 papers".
"""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtGui import QAction, QFont, QKeySequence
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTableWidget, QTableWidgetItem, QVBoxLayout

from paperdesk.gui.common.geometry import fit_to_screen

# (area, the actions in it by name, in the order they are learned). An action with a
# key that no area names goes under "More", in the menus' order.
AREAS: list[tuple[str, list[str]]] = [
    ("Moving around", ["next", "previous", "first_row", "last_row", "find", "clear_search"]),
    ("Reading and rating", ["mark_read", "mark_unread", "mark_to_read", "mark_reading",
                            *(f"rate{n}" for n in range(6)), "add_tag", "write_note"]),
    ("Getting papers in", ["today", "add_by_id", "paste_ids", "import_files",
                           "import_folder", "fetch_daily", "follows"]),
    ("Triage", ["triage"]),
    ("Reading queue", ["queue_up", "queue_down", "queue_top", "queue_bottom"]),
    ("PDFs", ["get_pdf", "read_pdf"]),
    ("Opening and citing", ["open_arxiv", "open_hf", "open_code", "open_project",
                            "copy_bibtex", "copy_cite", "copy_pandoc", "copy_reference"]),
    ("Undo", ["undo", "redo"]),
    ("Tidying", ["trash", "review_duplicates"]),
    ("The library", ["new_library", "open_library", "export_bibtex", "quit"]),
    ("Help", ["shortcuts"]),
]
WHAT = {"undo": "Undo the last edit", "redo": "Redo the edit undone"}
OTHER_KEYS = [
    ("Moving around", "Tab / Shift+Tab", "Search box → table → status → tags → note → table"),
    ("Moving around", "Ctrl+A", "Select every listed paper"),
    ("Moving around", "Menu key / right click", "The rows' context menu"),
    ("Undo", "Ctrl+Z in a text box", "Undo the typing there (the library's undo elsewhere)"),
]


def _key(action: QAction) -> str:
    return action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)


def rows(actions: dict[str, QAction],
         view_keys: list[tuple[str, list[tuple[str, str]]]]) -> list[tuple[str, str, str]]:
    """(area, keys, what) for every action that has a key, area by area, then the keys
    of the views features open (``(where, [(keys, what)])``)."""
    out: list[tuple[str, str, str]] = []
    placed: set[str] = set()
    for area, names in AREAS:
        for name in names:
            action = actions.get(name)
            if action is not None and _key(action):
                what = WHAT.get(name) or action.text().replace("&", "").rstrip("…")
                out.append((area, _key(action), what))
                placed.add(name)
        out += [(a, k, w) for a, k, w in OTHER_KEYS if a == area]
    out += [("More", _key(action), action.text().replace("&", "").rstrip("…"))
            for name, action in actions.items() if name not in placed and _key(action)]
    out += [(where, k, w) for where, keys in view_keys for k, w in keys]
    return out


class ShortcutsSheet(QDialog):
    def __init__(self, actions: dict[str, QAction], view_keys, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        self.entries = rows(actions, view_keys)
        table = QTableWidget(len(self.entries), 3)
        table.setHorizontalHeaderLabels(["Where", "Keys", "Does"])
        bold = QFont(table.font())
        bold.setBold(True)
        for r, entry in enumerate(self.entries):
            for c, text in enumerate(entry):
                first = c or r == 0 or self.entries[r - 1][0] != entry[0]
                item = QTableWidgetItem(text if first else "")  # each area named once
                if c == 0:
                    item.setFont(bold)
                table.setItem(r, c, item)
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

    def showEvent(self, event) -> None:
        """On its screen with its title bar, once the window manager has framed it."""
        super().showEvent(event)
        fit_to_screen(self)
        # The sheet as the timer's context: a sheet closed and deleted meanwhile takes the
        # timer with it (a bare lambda fired on the deleted sheet, inside a later test).
        QTimer.singleShot(100, self, lambda: fit_to_screen(self) if self.isVisible() else None)

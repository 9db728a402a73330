"""File > Follow on arXiv: the arXiv categories and authors Today brings, beside the
Hub's daily papers; follow one more, unfollow the selected.

The dialog works on ``lib.follows`` (``core/hub/follow.py``), the same list
``paperdesk follow`` keeps: a name arXiv could not take ("cs CL", digits in an
author's name) is refused with the core's one line, shown in the dialog, and the
list is as it was. What is followed is fetched by the next Today (Ctrl+T).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
)

from paperdesk.core.api import PaperDeskError
from paperdesk.gui.common.geometry import fit_to_screen
from paperdesk.gui.context import Feature

if TYPE_CHECKING:
    from paperdesk.gui.context import Context

KINDS = [("category", "arXiv category (cs.CL, stat.ML, hep-th)"), ("author", "Author")]
ROLE = Qt.ItemDataRole.UserRole


def shown(row: dict) -> str:
    """A followed category or author as the list shows it."""
    what = "Category" if row["kind"] == "category" else "Author"
    since = f" · newest taken {str(row['newest'])[:10]}" if row.get("newest") else ""
    return f"{what}: {row['value']}{since}"


class FollowDialog(QDialog):
    def __init__(self, context: Context) -> None:
        super().__init__(context.widget)
        self.context = context
        self.setWindowTitle("Follow on arXiv")
        self.setObjectName("follow")
        note = QLabel("Each Today (Ctrl+T) also brings the newest arXiv submissions of what you "
                      "follow here, beside the Hugging Face daily papers.")
        note.setWordWrap(True)
        self.list = QListWidget()
        self.list.setSelectionMode(QListWidget.SelectionMode.ExtendedSelection)
        self.kind = QComboBox()
        for kind, label in KINDS:
            self.kind.addItem(label, kind)
        self.entry = QLineEdit()
        self.entry.setPlaceholderText("cs.CL, or an author's name")
        self.entry.returnPressed.connect(self.follow)
        self.follow_button = QPushButton("&Follow")
        self.follow_button.clicked.connect(self.follow)
        self.unfollow_button = QPushButton("&Unfollow the selected")
        self.unfollow_button.clicked.connect(self.unfollow)
        self.message = QLabel()
        self.message.setWordWrap(True)
        adding = QHBoxLayout()
        for widget in (self.kind, self.entry, self.follow_button):
            adding.addWidget(widget)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        buttons.addButton(self.unfollow_button, QDialogButtonBox.ButtonRole.ActionRole)
        layout = QVBoxLayout(self)
        for widget in (note, self.list):
            layout.addWidget(widget)
        layout.addLayout(adding)
        layout.addWidget(self.message)
        layout.addWidget(buttons)
        self.list.itemSelectionChanged.connect(self._update)
        self.resize(560, 420)
        self.fill()

    def fill(self) -> None:
        self.list.clear()
        for row in self.context.lib.follows.listed():
            item = QListWidgetItem(shown(row))
            item.setData(ROLE, (row["kind"], row["value"]))
            self.list.addItem(item)
        if not self.list.count():
            self.message.setText("Nothing followed yet.")
        self._update()

    def _update(self) -> None:
        self.unfollow_button.setEnabled(bool(self.list.selectedItems()))

    def follow(self) -> list[str]:
        """Follow what the entry names (its kind from the list beside it)."""
        value = self.entry.text().strip()
        if not value:
            return []
        kind = self.kind.currentData()
        try:
            added = self.context.lib.follows.add(kind, [value])
        except PaperDeskError as exc:
            self.message.setText(f"⚠ {exc}")
            return []
        self.entry.clear()
        self.fill()
        self.message.setText(f"Following {value}: the next Today brings its new papers."
                             if added else f"{value} was followed already.")
        return added

    def unfollow(self) -> list[str]:
        removed: list[str] = []
        for item in self.list.selectedItems():
            kind, value = item.data(ROLE)
            try:
                removed += self.context.lib.follows.remove(kind, [value])
            except PaperDeskError as exc:
                self.message.setText(f"⚠ {exc}")
                break
        self.fill()
        if removed:
            self.message.setText(f"No longer following {', '.join(removed)}.")
        return removed


class Follows(Feature):
    """File > Follow on arXiv…"""

    name = "follows"

    def install(self, context: Context) -> None:
        super().install(context)
        self.dialog: FollowDialog | None = None
        context.menus.add("file", "follows", "Follow on ar&Xiv…", self.open, before="fetch_daily")

    def open(self) -> FollowDialog:
        self.dialog = FollowDialog(self.context)
        self.dialog.show()
        fit_to_screen(self.dialog)
        return self.dialog

    def library_changed(self, lib) -> None:
        if self.dialog is not None:
            self.dialog.close()
            self.dialog = None

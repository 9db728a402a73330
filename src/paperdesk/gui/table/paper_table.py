"""The paper table's view: select-all that covers every listed paper, and a note
shown over it when nothing is listed."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QTableView, QWidget


class EmptyNote(QLabel):
    """Centred over the table's viewport while the table is empty."""

    def __init__(self, viewport: QWidget) -> None:
        super().__init__(viewport)
        self.setObjectName("empty-note")
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setStyleSheet("color: palette(mid); font-size: 12pt; padding: 24px;")
        viewport.installEventFilter(self)
        self.hide()

    def show_text(self, text: str) -> None:
        self.setText(text)
        self._place()
        self.show()

    def _place(self) -> None:
        parent = self.parentWidget()
        if parent is not None:
            self.setGeometry(parent.rect())

    def eventFilter(self, watched, event) -> bool:
        if event.type() == event.Type.Resize:
            self._place()
        return False


class PaperTable(QTableView):
    """``before_select_all`` runs first so that a list still arriving is complete:
    Ctrl+A then selects every paper the search found, not the first page."""

    def __init__(self, before_select_all: Callable[[], None]) -> None:
        super().__init__()
        self.before_select_all = before_select_all
        self.empty_note = EmptyNote(self.viewport())

    def selectAll(self) -> None:
        self.before_select_all()
        super().selectAll()

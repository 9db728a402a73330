"""The status bar's progress panel for the job that runs: its text, a bar and Cancel.

The operation runner (``gui/operations.py``) drives it; it belongs to no feature.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from paperdesk.gui.common.icons import icon


class ProgressPanel(QWidget):
    """Progress bar with a Cancel button, shown while a job runs."""

    def __init__(self, cancel: Callable[[], None], parent=None) -> None:
        super().__init__(parent)
        self.label = QLabel()
        self.bar = QProgressBar()
        self.bar.setRange(0, 1000)
        self.bar.setMaximumWidth(220)
        self.bar.setTextVisible(False)
        self.cancel = QPushButton(icon("cancel"), "Cancel")
        self.cancel.clicked.connect(cancel)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.label, self.bar, self.cancel):
            layout.addWidget(widget)
        self.hide()

    def start(self, text: str, cancellable: bool = True) -> None:
        """Shown for a job; without Cancel for one that cannot stop part way."""
        self.label.setText(text)
        self.bar.setValue(0)
        self.cancel.setEnabled(True)
        self.cancel.setVisible(cancellable)
        self.show()

    def step(self, fraction: float, message: str) -> None:
        self.bar.setValue(int(max(0.0, min(1.0, fraction)) * 1000))
        if message and self.cancel.isEnabled():
            self.label.setText(message)

    def cancelling(self) -> None:
        self.label.setText("Cancelling…")
        self.cancel.setEnabled(False)

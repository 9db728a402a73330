"""The few yes/no questions and warnings the app asks, in one place.

Views call ``dialogs.confirm`` and ``dialogs.warn`` through this module, so
tests can answer them (monkeypatching these two functions) without a modal
dialog waiting for a click.
"""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QWidget


def confirm(parent: QWidget | None, title: str, text: str, action: str) -> bool:
    """Ask before something large; ``action`` names the button that goes ahead."""
    box = QMessageBox(QMessageBox.Icon.Question, title, text, parent=parent)
    go = box.addButton(action, QMessageBox.ButtonRole.AcceptRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.exec()
    return box.clickedButton() is go


def warn(parent: QWidget | None, title: str, text: str) -> None:
    QMessageBox.warning(parent, title, text)

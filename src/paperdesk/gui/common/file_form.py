"""The parts the export and the kept-in-sync dialogs share: the format box, the file
field with its Choose… button, a suffix that follows the format, and OK and Cancel
buttons where OK needs a file."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
)

STYLES = [("BibTeX (@misc with eprint)", "bibtex"), ("biblatex (@online)", "biblatex"),
          ("CSL-JSON (pandoc, Quarto, Zotero)", "csl-json")]
OK = QDialogButtonBox.StandardButton.Ok


def style_box(changed: Callable[[], None]) -> QComboBox:
    """The formats (each item's data is the core's style name); ``changed`` on a switch."""
    box = QComboBox()
    for label, value in STYLES:
        box.addItem(label, value)
    box.currentIndexChanged.connect(lambda _i: changed())
    return box


def suffix(style: str | None) -> str:
    return ".json" if style == "csl-json" else ".bib"


def match_suffix(path: QLineEdit, style: str | None) -> None:
    """Switching between BibTeX and CSL-JSON switches a .bib path to .json and back."""
    current = Path(path.text().strip())
    if current.suffix in (".bib", ".json") and current.suffix != suffix(style):
        path.setText(str(current.with_suffix(suffix(style))))


def path_row(path: QLineEdit, choose: Callable[[], None]) -> QHBoxLayout:
    """The file field and a Choose… button beside it that calls ``choose``."""
    browse = QPushButton("Choose…")
    browse.clicked.connect(choose)
    row = QHBoxLayout()
    row.addWidget(path, 1)
    row.addWidget(browse)
    return row


def ok_cancel(dialog: QDialog, ok_text: str, path: QLineEdit) -> QDialogButtonBox:
    """OK (named ``ok_text``) and Cancel for ``dialog``; OK is enabled while ``path``
    holds a file name."""
    buttons = QDialogButtonBox(OK | QDialogButtonBox.StandardButton.Cancel)
    ok = buttons.button(OK)
    ok.setText(ok_text)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)

    def update(_text: str = "") -> None:
        ok.setEnabled(bool(path.text().strip()))

    path.textChanged.connect(update)
    update()
    return buttons


def chosen_path(path: QLineEdit) -> Path | None:
    """The file the field names (``~`` expanded), or None when it is empty."""
    text = path.text().strip()
    return Path(text).expanduser() if text else None

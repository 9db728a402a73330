"""The parts the export and the kept-in-sync dialogs share: the format box (the core's
list of formats, ``core/bibtex/formats.py``), the file field with its Choose… button, a
suffix that follows the format, and OK and Cancel buttons where OK needs a file."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
)

from paperdesk.core.api import FORMATS, Format

OK = QDialogButtonBox.StandardButton.Ok
SUFFIXES = {s for f in FORMATS for s in f.suffixes}  # the file names the formats give


def style_box(changed: Callable[[], None], formats: Sequence[Format] = FORMATS) -> QComboBox:
    """The ``formats`` by their labels (each item's data is the format's name, the core's
    ``style``); ``changed`` on a switch."""
    box = QComboBox()
    for chosen in formats:
        box.addItem(chosen.label, chosen.name)
    box.currentIndexChanged.connect(lambda _i: changed())
    return box


def named(style: str) -> Format:
    """The format the core calls ``style``."""
    return next(f for f in FORMATS if f.name == style)


def format_of(box: QComboBox) -> Format:
    """The format chosen in a ``style_box``."""
    return named(box.currentData())


def file_filter(formats: Sequence[Format]) -> str:
    """The file dialog's filter for files of ``formats`` ("BibTeX files (*.bib);;...")."""
    kinds = " or ".join(dict.fromkeys(f.kind for f in formats))
    patterns = " ".join(dict.fromkeys(f"*{s}" for f in formats for s in f.suffixes))
    return f"{kinds} files ({patterns});;All files (*)"


def match_suffix(path: QLineEdit, style: str) -> None:
    """Switching formats switches a file name of another format's suffix (.bib, .json)
    to the one of the format called ``style``."""
    chosen = named(style)
    current = Path(path.text().strip())
    if current.suffix in SUFFIXES and current.suffix not in chosen.suffixes:
        path.setText(str(current.with_suffix(chosen.suffix)))


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

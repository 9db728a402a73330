"""File > Export BibTeX: which papers, which format, where to.

All papers, the papers the table shows now (sidebar entry and search), or the
selected ones; in one of the core's formats (``core/bibtex/formats.py``: BibTeX,
biblatex, CSL-JSON), whose kind titles the dialog, whose options are the ones
offered (ASCII only, your notes, .bib fields as written) and whose suffix the file
takes; a file named for another format (CSL-JSON into ``all.bib``) is asked about
first. Large exports run on the worker with progress and Cancel in the status bar;
the file is written whole or not at all (``lib.bibtex.export_to``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QLabel,
    QLineEdit,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from paperdesk.core.api import Format
from paperdesk.gui import operations
from paperdesk.gui.bibtex.key_check import keys_ready
from paperdesk.gui.common import dialogs, file_form, settings
from paperdesk.gui.context import context_of

if TYPE_CHECKING:
    from paperdesk.gui.context import Context

ALL, SHOWN, SELECTED = "all", "shown", "selected"
LAST_FOLDER = "export/folder"


def shown_ids(owner: Any) -> list[int]:
    """Every paper the table shows, in its order, even while only its first page is in."""
    return context_of(owner).selection.shown_ids()


class ExportDialog(QDialog):
    def __init__(self, context: Context) -> None:
        super().__init__(context.widget)
        self.context = context
        self.shown_ids = shown_ids(context)
        self.selected_ids = context.selected_ids()
        self.written: int | None = None
        self.path_written: Path | None = None

        total = context.lib.stats()["papers"]
        source = context.selection.count_label.text() or "the table"
        scope_box = self._build_scopes(total, source)
        self.style = file_form.style_box(self._follow_format)
        self.ascii = QCheckBox()
        self.notes = QCheckBox()
        self.as_written = QCheckBox("Fields from .bib files exactly as written "
                                    "(no escaping of bare # & _ ^)")
        self.options = {"ascii": self.ascii, "notes": self.notes, "as_written": self.as_written}
        self.path = QLineEdit()
        folder = settings.settings().value(LAST_FOLDER) or str(Path.home())
        self.path.setText(str(Path(folder) / f"{context.lib.name}{self.format().suffix}"))
        self._follow_format()
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.buttons = file_form.ok_cancel(self, "Export", self.path)
        self._lay_out(scope_box)
        self.setMinimumWidth(560)

    def _build_scopes(self, total: int, source: str) -> QWidget:
        """All papers, those shown now (``source`` names them), the selected ones: each
        with its count, and disabled when there are none."""
        self.scope_buttons = QButtonGroup(self)
        scope_box = QWidget()
        scope_layout = QVBoxLayout(scope_box)
        scope_layout.setContentsMargins(0, 0, 0, 0)
        for name, text, count in (
                (ALL, "All papers", total),
                (SHOWN, f"The papers shown now ({source.split(' — ', 1)[-1]})",
                 len(self.shown_ids)),
                (SELECTED, "The selected papers", len(self.selected_ids))):
            button = QRadioButton(f"{text}: {count}")
            button.setProperty("scope", name)
            button.setEnabled(count > 0 or name == ALL)
            self.scope_buttons.addButton(button)
            scope_layout.addWidget(button)
        self.set_scope(SELECTED if len(self.selected_ids) > 1 else ALL)
        return scope_box

    def _lay_out(self, scope_box: QWidget) -> None:
        form = QFormLayout()
        form.addRow("Papers:", scope_box)
        form.addRow("Style:", self.style)
        form.addRow("", self.ascii)
        form.addRow("", self.notes)
        form.addRow("", self.as_written)
        form.addRow("Save to:", file_form.path_row(self.path, self.choose_path))
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.message)
        layout.addWidget(self.buttons)

    # -- options (the tests drive these too) -------------------------------------

    def scope(self) -> str:
        button = self.scope_buttons.checkedButton()
        return button.property("scope") if button is not None else ALL

    def set_scope(self, name: str) -> None:
        for button in self.scope_buttons.buttons():
            if button.property("scope") == name and button.isEnabled():
                button.setChecked(True)

    def set_options(self, *, style: str | None = None, ascii: bool | None = None,
                    notes: bool | None = None, path: str | Path | None = None,
                    scope: str | None = None, as_written: bool | None = None) -> None:
        if style is not None:
            self.style.setCurrentIndex(self.style.findData(style))
        if ascii is not None:
            self.ascii.setChecked(ascii)
        if notes is not None:
            self.notes.setChecked(notes)
        if as_written is not None:
            self.as_written.setChecked(as_written)
        if path is not None:
            self.path.setText(str(path))
        if scope is not None:
            self.set_scope(scope)

    def ids(self) -> list[int] | None:
        """The papers to export; None for the whole library."""
        return {ALL: None, SHOWN: self.shown_ids, SELECTED: self.selected_ids}[self.scope()]

    def format(self) -> Format:
        return file_form.format_of(self.style)

    def suffix(self) -> str:
        return self.format().suffix

    def chosen_options(self) -> dict[str, bool]:
        """The options as ``export_to`` takes them: those the format does not take, off."""
        taken = self.format().options
        return {name: box.isChecked() and name in taken for name, box in self.options.items()}

    def _follow_format(self) -> None:
        """The title, the options offered and the file's suffix follow the format."""
        chosen = self.format()
        self.setWindowTitle(f"Export {chosen.kind}")
        self.ascii.setText(f"ASCII only ({chosen.ascii_means})")
        self.notes.setText(f"Include my notes (as the {chosen.notes_in} field)")
        for name, box in self.options.items():
            box.setEnabled(name in chosen.options)
        self.path.setPlaceholderText(f"Where to save the {chosen.suffix} file")
        file_form.match_suffix(self.path, chosen.name)

    def choose_path(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export", self.path.text(),
                                              file_form.file_filter([self.format()]))
        if path:
            self.path.setText(path if Path(path).suffix else f"{path}{self.suffix()}")

    # -- exporting -----------------------------------------------------------------

    def accept(self) -> None:
        """Export; the dialog closes when the file is written (at once for small ones)."""
        path = file_form.chosen_path(self.path)
        if path is None:
            return
        ids = self.ids()
        chosen, options = self.format(), self.chosen_options()
        style = chosen.name
        wrong = chosen.misnamed(path)  # CSL-JSON into all.bib, BibTeX into refs.json
        if wrong and not dialogs.confirm(self, f"Write {chosen.kind} into {path.name}?",
                                         f"{wrong}. Write it under this name anyway?",
                                         f"Write {chosen.kind}"):
            return
        other = self.context.lib.bibtex.foreign(path, style)  # no export: asked first
        if other and not dialogs.confirm(self, "Replace the file?", f"{path} {other}. "
                                         "Replace it with the export?", "Replace"):
            return
        count = len(ids) if ids is not None else self.context.lib.stats()["papers"]
        self.buttons.setEnabled(False)

        def job(lib, progress, cancel):
            return lib.bibtex.export_to(path, ids, style=style, progress=progress,
                                        cancel=cancel, overwrite=bool(other), **options)

        def export() -> None:
            self.message.setText(f"Exporting {count} papers…")
            self.context.ops.run(f"Exporting {chosen.kind}", job, lambda n: self._done(path, n),
                                 self._failed, inline=count < operations.LARGE)

        # Weak provisional keys are offered a completion first (the whole library is
        # exported as it is: completing thousands of papers is a job of its own).
        if ids is None:
            export()
            return
        ready = keys_ready(self.context, ids, export, "Export", self._failed)
        if ready is None:
            self.buttons.setEnabled(True)
        elif ready is False:
            self.message.setText("Completing the weak keys from Hugging Face first…")

    def _done(self, path: Path, count: int) -> None:
        self.written, self.path_written = count, path
        settings.save({LAST_FOLDER: str(path.parent)})
        self.context.show_message(
            f"Exported {count} entr{'y' if count == 1 else 'ies'} to {path}", 10000)
        super().accept()

    def _failed(self, message: str) -> None:
        self.buttons.setEnabled(True)
        self.message.setText(f"⚠ {message}")


def open_export(context: Context) -> ExportDialog:
    dialog = ExportDialog(context)
    dialog.open()
    return dialog

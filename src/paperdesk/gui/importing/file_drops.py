"""Imports, the feature: files dropped on the window from elsewhere are imported, and
File > Undo last import names the library's last import (or is off)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from paperdesk.gui.context import Context, Feature
from paperdesk.gui.importing.importing import local_paths

if TYPE_CHECKING:
    from PySide6.QtCore import QMimeData
    from PySide6.QtGui import QDropEvent

    from paperdesk.core.api import Library


class Imports(Feature):
    """Files dropped on the window from elsewhere are imported (the last asked: a
    feature's own drags, such as the table's rows, are refused before), through the
    context's importer; the File menu's Undo last import follows what it did."""

    name = "imports"

    def install(self, context: Context) -> None:
        super().install(context)
        context.importer.done.connect(lambda _reports: self.show_undo())

    def accepts_drop(self, data: QMimeData) -> bool | None:
        return True if local_paths(data.urls()) else None

    def drop(self, event: QDropEvent) -> None:
        self.context.importer.start(local_paths(event.mimeData().urls()))

    def undo_last(self) -> None:
        """Remove what the last import created; the user's work since stays."""
        self.context.importer.undo_last()  # the next import (or library) offers one again
        self.show_undo()

    def library_changed(self, lib: Library) -> None:
        self.context.importer.last_import = lib.imports.last()
        self.show_undo()

    def show_undo(self) -> None:
        """File > Undo last import names the library's last import, or is off."""
        record = self.context.importer.last_import
        action = self.context.actions["undo_import"]
        action.setEnabled(record is not None)
        named = "" if record is None or not record.files else f" ({record.files[0]}" + (
            f" and {len(record.files) - 1} more)" if len(record.files) > 1 else ")")
        action.setText(f"&Undo last import{named}")

"""The BibTeX features of the window: File > Export BibTeX… and the kept-in-sync .bib
files (File > Keep a .bib in sync…, Synced files, the status line)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from paperdesk.gui.bibtex import export_dialog, sync_panel
from paperdesk.gui.context import Feature

if TYPE_CHECKING:
    from paperdesk.gui.context import Context


class Export(Feature):
    """File > Export BibTeX… (and on the toolbar); ``dialog`` is the last one opened."""

    name = "export"

    def install(self, context: Context) -> None:
        super().install(context)
        self.dialog: export_dialog.ExportDialog | None = None
        action = context.menus.add("file", "export_bibtex", "&Export BibTeX…", self.open,
                                   "Ctrl+E", "export", before="quit")
        toolbar = context.widget.toolbar
        toolbar.insertAction(toolbar.actions()[1] if toolbar.actions() else None, action)

    def open(self) -> export_dialog.ExportDialog:
        self.dialog = export_dialog.open_export(self.context)
        return self.dialog


class Sync(Feature):
    """Kept-in-sync files: File > Keep a .bib in sync…, Synced files, the status line."""

    name = "sync"

    def install(self, context: Context) -> None:
        super().install(context)
        self.panel = sync_panel.install(context, context.menus.menu("file"),
                                        context.actions.get("quit"))
        self.writer = self.panel.writer

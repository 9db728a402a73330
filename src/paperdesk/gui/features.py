"""The window's features, installed from one explicit list, in this order.

Each is a ``Feature`` (``gui/context.py``): ``install(context)`` adds its menu
entries, keys, sidebar entries and views through the context's public APIs;
then it hears ``library_changed``, ``changes_applied`` and ``close``. Nothing
installs itself by being imported; a feature is on the window when it is here.
The order is the order of their entries in the menus.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer

from paperdesk.gui.bibtex import export_dialog, sync_panel
from paperdesk.gui.bibtex.key_check import KeyCheck
from paperdesk.gui.common.clipboard import Clipboard
from paperdesk.gui.context import Feature
from paperdesk.gui.curation import triage_view
from paperdesk.gui.curation.queue_view import Queue
from paperdesk.gui.duplicates.review import Review
from paperdesk.gui.hub.enrich_action import Hub
from paperdesk.gui.hub.today import Today
from paperdesk.gui.jobs.outside_feed import OutsideWrites
from paperdesk.gui.startup.library_files import LibraryFiles

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


class Triage(Feature):
    """Triage a digest: from the sidebar's digests, after an import, by Ctrl+Shift+T."""

    name = "triage"

    def install(self, context: Context) -> None:
        super().install(context)
        self.view: triage_view.TriageView | None = None  # the last one opened
        context.sidebar.triage.connect(lambda digest: self.open([digest]))
        context.importer.done.connect(self._imported)

    def open(self, digest_ids: list[int] | None = None) -> triage_view.TriageView | None:
        return triage_view.open_triage(self.context, digest_ids)

    def _imported(self, _reports: list) -> None:
        """Under the import report (once it is open), a button to triage its digests."""
        record = self.context.importer.last_import
        if record is not None and record.digest_ids:
            digest_ids = list(record.digest_ids)
            QTimer.singleShot(0, lambda: triage_view.triage_link(self.context, digest_ids))


FEATURES: list[type[Feature]] = [LibraryFiles, Export, Sync, Clipboard, Triage, Review, Hub,
                                 KeyCheck, Today, Queue, OutsideWrites]

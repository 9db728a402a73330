"""Files dropped on the window from elsewhere are imported: the feature that takes them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from paperdesk.gui.context import Feature
from paperdesk.gui.importing.importing import local_paths

if TYPE_CHECKING:
    from PySide6.QtCore import QMimeData
    from PySide6.QtGui import QDropEvent


class Imports(Feature):
    """Files dropped on the window from elsewhere are imported (the last asked: a
    feature's own drags, such as the table's rows, are refused before)."""

    name = "imports"

    def accepts_drop(self, data: QMimeData) -> bool | None:
        return True if local_paths(data.urls()) else None

    def drop(self, event: QDropEvent) -> None:
        importer = self.context.importer
        assert importer is not None  # made with the window, before it takes drops
        importer.start(local_paths(event.mimeData().urls()))

"""Rows of the paper table dropped on a tag in the sidebar get that tag.

The table's drags carry its papers' ids (``PAPER_IDS_MIME``, ``curation/queue_view.py``);
over a tag entry of the sidebar such a drag is taken as a copy and its drop tags
the papers: one edit through the operation runner, so Ctrl+Z takes it back. Over any
other entry, or with anything else in the drag (files from elsewhere), the sidebar
refuses it and the window's own drop handling (imports) is as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt

from paperdesk.core.api import plural
from paperdesk.gui import paper_edits
from paperdesk.gui.context import Feature
from paperdesk.gui.curation.queue_view import own_ids

if TYPE_CHECKING:
    from paperdesk.gui.context import Context


class TagDrops(Feature):
    """Dropping the table's rows on a sidebar tag tags them."""

    name = "tag_drops"

    def install(self, context: Context) -> None:
        super().install(context)
        self.filter = _SidebarDrops(self)
        context.sidebar.setAcceptDrops(True)
        context.sidebar.viewport().setAcceptDrops(True)
        context.sidebar.viewport().installEventFilter(self.filter)

    def target(self, event) -> tuple[str, list[int]] | None:
        """(tag, paper ids) when ``event`` drags the table's rows over a tag entry."""
        ctx = self.context
        ids = own_ids(ctx, event.mimeData())
        source = ctx.sidebar.source_at(event.position().toPoint())
        if not ids or source is None or source[0] != "tag":
            return None
        return source[1], ids

    def tag(self, name: str, ids: list[int]) -> None:
        if paper_edits.add_tags(self.context, ids, [name]) is not None:
            self.context.show_message(f"Tagged {plural(len(ids), 'paper')} “{name}”", 5000)


class _SidebarDrops(QObject):
    def __init__(self, feature: TagDrops) -> None:
        super().__init__(feature.context)
        self.feature = feature

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind not in (QEvent.Type.DragEnter, QEvent.Type.DragMove, QEvent.Type.Drop):
            return False
        found = self.feature.target(event)
        if found is None:
            if own_ids(self.feature.context, event.mimeData()) is not None:
                event.ignore()  # the table's rows, but not over a tag: nothing to do
                return True
            return False  # files from elsewhere: the window imports them
        # Offered as a copy (outside the queue the table's drag offers only that) or a
        # link: never a move, which would ask the table to remove its rows.
        possible = event.possibleActions()
        for action in (Qt.DropAction.CopyAction, Qt.DropAction.LinkAction):
            if possible & action:
                event.setDropAction(action)
                break
        event.accept()
        if kind == QEvent.Type.Drop:
            self.feature.tag(*found)
        return True

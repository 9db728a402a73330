"""The table header: movable, resizable columns shown or hidden from its context menu."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QHeaderView, QMenu, QTableView

from paperdesk.gui.table.paper_model import (
    ADDED,
    COLUMNS,
    DIGESTS,
    MOMENTUM,
    QUEUE,
    RATING,
    STATUS,
    TAGS,
    TITLE,
    PaperModel,
)

WIDTHS = {TITLE: 300, RATING: 100, STATUS: 70, TAGS: 100, DIGESTS: 60, ADDED: 88,
          MOMENTUM: 80, QUEUE: 34}
DEFAULT_WIDTH = 62


def setup_header(table: QTableView, model: PaperModel) -> None:
    header = table.horizontalHeader()
    header.setSectionsMovable(True)
    header.setSectionsClickable(True)
    header.setStretchLastSection(False)
    header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    header.setHighlightSections(False)
    header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
    for col in range(len(COLUMNS)):
        header.resizeSection(col, WIDTHS.get(col, DEFAULT_WIDTH))
    header.moveSection(header.visualIndex(QUEUE), 0)  # the queue's "#" comes first
    header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
    header.customContextMenuRequested.connect(
        lambda pos: column_menu(header).exec(header.mapToGlobal(pos)))


def column_menu(header: QHeaderView) -> QMenu:
    """A checkable entry per column; the title column always stays."""
    menu = QMenu(header)
    for col, (name, _key) in enumerate(COLUMNS):
        action = QAction(name, menu)
        action.setCheckable(True)
        action.setChecked(not header.isSectionHidden(col))
        action.setEnabled(col != TITLE)
        action.toggled.connect(lambda on, c=col: header.setSectionHidden(c, not on))
        menu.addAction(action)
    return menu

"""Star ratings: drawn in table cells by a delegate, and a clickable widget for the detail pane."""

from __future__ import annotations

import math

from PySide6.QtCore import QEvent, QObject, QPointF, QRect, QSize, Qt, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPalette, QPixmap, QPolygonF
from PySide6.QtWidgets import (
    QAbstractItemView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

MAX = 5
WIDTH = MAX * 18 + 6


def _star(size: float) -> QPolygonF:
    points = []
    for i in range(10):
        radius = size / 2 if i % 2 == 0 else size / 5
        angle = math.pi / 2 + i * math.pi / 5
        points.append(QPointF(size / 2 + radius * math.cos(angle),
                              size / 2 - radius * math.sin(angle) + size * 0.05))
    return QPolygonF(points)


def paint_stars(painter: QPainter, rect: QRect, rating: int, filled: QColor,
                empty: QColor) -> None:
    """Five stars left-aligned in ``rect``, the first ``rating`` filled."""
    size = min(rect.height() - 4, 16)
    if size <= 0:
        return
    star = _star(size)
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    top = rect.top() + (rect.height() - size) / 2
    for i in range(MAX):
        painter.save()
        painter.translate(rect.left() + 2 + i * (size + 2), top)
        if i < rating:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(filled)
        else:
            painter.setPen(empty)
            painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPolygon(star)
        painter.restore()
    painter.restore()


def star_at(x: float, height: int) -> int:
    """The rating a click at ``x`` means (1-5), for stars drawn by ``paint_stars``."""
    size = max(min(height - 4, 16), 1)
    return max(1, min(MAX, int((x - 2) // (size + 2)) + 1))


_HIGHLIGHTED = QPalette.ColorRole.HighlightedText
_LINK, _PLACEHOLDER = QPalette.ColorRole.Link, QPalette.ColorRole.PlaceholderText
_SELECTED = QStyle.StateFlag.State_Selected
_ITEM = QStyle.ControlElement.CE_ItemViewItem
_EDIT_ROLE = Qt.ItemDataRole.EditRole


def colors(palette: QPalette, selected: bool) -> tuple[QColor, QColor]:
    if selected:
        text = palette.color(_HIGHLIGHTED)
        return text, text
    return palette.color(_LINK), palette.color(_PLACEHOLDER)


class StarDelegate(QStyledItemDelegate):
    """Paints the rating column as stars; the number is in ``Qt.EditRole``.

    Each look (rating, height, colours, pixel ratio) is drawn once into a
    pixmap and reused, so a repaint of the table costs one blit per row.
    """

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._cache: dict[tuple, QPixmap] = {}

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        style = opt.widget.style() if opt.widget else None
        if style is not None:
            style.drawControl(_ITEM, opt, painter, opt.widget)
        selected = bool(opt.state & _SELECTED)
        filled, empty = colors(opt.palette, selected)
        rating = int(index.data(_EDIT_ROLE) or 0)
        ratio = painter.device().devicePixelRatioF()
        height = opt.rect.height()
        key = (rating, height, filled.rgba(), empty.rgba(), ratio)
        pm = self._cache.get(key)
        if pm is None:
            pm = QPixmap(int(WIDTH * ratio), int(height * ratio))
            pm.setDevicePixelRatio(ratio)
            pm.fill(Qt.GlobalColor.transparent)
            p = QPainter(pm)
            paint_stars(p, QRect(0, 0, WIDTH, height), rating, filled, empty)
            p.end()
            self._cache[key] = pm
        painter.drawPixmap(opt.rect.topLeft(), pm)

    def sizeHint(self, option: QStyleOptionViewItem, index) -> QSize:
        return QSize(5 * 18 + 6, 20)


class StarClicks(QObject):
    """Clicks on the stars of a table's rating column: ``rated(row, rating)``.

    Clicking the current rating again means 0 (unrated), as in the detail
    pane. Watches the view's viewport, so it sees every click whatever the
    view's selection and editing state.
    """

    rated = Signal(int, int)

    def __init__(self, view: QAbstractItemView, column: int) -> None:
        super().__init__(view)
        self.view, self.column = view, column
        view.viewport().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (isinstance(event, QMouseEvent) and event.type() == QEvent.Type.MouseButtonRelease
                and event.button() == Qt.MouseButton.LeftButton
                and not event.modifiers()):
            pos = event.position().toPoint()
            index = self.view.indexAt(pos)
            if index.isValid() and index.column() == self.column:
                rect = self.view.visualRect(index)
                x = pos.x() - rect.left()
                if 0 <= x < WIDTH:
                    rating = star_at(x, rect.height())
                    current = int(index.data(_EDIT_ROLE) or 0)
                    self.rated.emit(index.row(), 0 if rating == current else rating)
        return False


class StarRating(QWidget):
    """Five clickable stars. Clicking the current rating again clears it."""

    rated = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._rating = 0
        self.setFixedSize(5 * 18 + 6, 20)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip("Rating: click a star (0-5 on the keyboard)")

    def rating(self) -> int:
        return self._rating

    def setRating(self, rating: int) -> None:
        self._rating = int(rating or 0)
        self.update()

    def paintEvent(self, event: QEvent) -> None:
        painter = QPainter(self)
        filled, empty = colors(self.palette(), False)
        if not self.isEnabled():
            filled = empty
        paint_stars(painter, self.rect(), self._rating, filled, empty)

    def mouseReleaseEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            value = star_at(event.position().x(), self.height())
            self.rated.emit(0 if value == self._rating else value)

"""The pages of a PDF in one continuous scroll, with what lies over them.

The view paints the pages ``Layout`` places, each from the image the rendering
thread made for the zoom in use (an image of another zoom, stretched, stands in
until it comes; a blank page before any). It asks for the pages on screen and
``AHEAD`` beyond them, the page in view first, and keeps the last ``KEPT`` images.
Over the pages: the highlights filled in their colours, every find hit framed (the
current one framed and filled) and the selection, all from the characters' boxes of the page's text.
A drag over text selects it; the keys are the reader window's.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from PySide6.QtCore import QPointF, QRect, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QImage, QPainter, QPen, QRegion
from PySide6.QtWidgets import QAbstractScrollArea

from paperdesk.core.api import HIGHLIGHT_COLOURS
from paperdesk.gui.pdf.layout import Layout
from paperdesk.gui.pdf.renderer import RENDER, TEXT, Renderer

AHEAD = 3      # pages rendered beyond the last on screen (one behind the first)
KEPT = 24      # images kept
# Find's hits are framed, not filled like a highlight (a yellow highlight and a
# yellow hit looked the same); the current hit is framed and filled.
HIT = QColor(230, 90, 0)
CURRENT_HIT = QColor(255, 120, 0, 120)
SELECTED = QColor(40, 110, 255, 80)
BACKGROUND = QColor(90, 90, 96)


def quad_boxes(quads: list[list[float]]) -> list[tuple[float, float, float, float]]:
    """The rectangles (left, bottom, right, top) around quads."""
    return [(min(q[0::2]), min(q[1::2]), max(q[0::2]), max(q[1::2])) for q in quads]


def range_boxes(text: Any, start: int, end: int) -> list[tuple[float, float, float, float]]:
    return quad_boxes(text.quads(start, end))


def colour(name: str, alpha: int = 110) -> QColor:
    c = QColor(name)
    c.setAlpha(alpha)
    return c


class PageView(QAbstractScrollArea):
    page_changed = Signal(int)        # the page in view (0-based)
    selection_changed = Signal()
    text_arrived = Signal(int)        # a page's text came (find waits for it)
    highlight_clicked = Signal(int)   # a highlight's id: a click on it

    def __init__(self, renderer: Renderer, sizes: list[tuple[float, float]],
                 parent=None) -> None:
        super().__init__(parent)
        self.renderer = renderer
        self.layout_ = Layout(list(sizes))
        self.images: OrderedDict[tuple[int, float], QImage] = OrderedDict()
        self.texts: dict[int, Any] = {}      # page -> PageText
        self.asked: set[tuple[str, int, float]] = set()
        self.hits: list[tuple[int, int, int]] = []   # (page, start, end), reading order
        self.current_hit = -1
        self.highlights: list[dict[str, Any]] = []
        self.selection: tuple[int, int, int] | None = None  # page, start, end
        self._anchor: tuple[int, int] | None = None
        self._page = -1
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        # The paint covers every pixel (background, then pages): Qt need not clear first.
        self.viewport().setAutoFillBackground(False)
        self.viewport().setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.viewport().setMouseTracking(False)
        renderer.rendered.connect(self._rendered)
        renderer.text_ready.connect(self._text)
        self.verticalScrollBar().valueChanged.connect(lambda _v: self._scrolled())
        self._update_bars()

    # -- zoom and position -----------------------------------------------------------

    @property
    def zoom(self) -> float:
        return self.layout_.zoom

    @property
    def page_count(self) -> int:
        return len(self.layout_.sizes)

    def set_zoom(self, zoom: float) -> None:
        page, offset = self._anchor_point()
        self.layout_.set_zoom(zoom)
        self.renderer.forget(RENDER)
        self.asked = {a for a in self.asked if a[0] != RENDER}
        self._update_bars()
        self.verticalScrollBar().setValue(int(self.layout_.top(page) + offset * self.zoom))
        self.viewport().update()

    def fit_width(self) -> None:
        self.set_zoom(self.layout_.fit_width_zoom(self.viewport().width()))

    def _anchor_point(self) -> tuple[int, float]:
        """The page at the top of the view and how far into it, in points."""
        y = self.verticalScrollBar().value()
        page = self.layout_.page_at(y)
        return page, (y - self.layout_.top(page)) / self.zoom

    def current_page(self) -> int:
        bar = self.verticalScrollBar()
        return self.layout_.page_at(bar.value() + self.viewport().height() / 3)

    def go_to(self, page: int, y_points: float | None = None) -> None:
        """Show page ``page`` (0-based) at the top; ``y_points``: that height of it."""
        page = max(0, min(self.page_count - 1, page))
        top = self.layout_.top(page)
        if y_points is not None:
            top = self.layout_.to_view(page, 0, y_points)[1] - self.viewport().height() / 3
        self.verticalScrollBar().setValue(int(top))
        self._scrolled()

    def _update_bars(self) -> None:
        self.layout_.view_width = self.viewport().width()
        v, h = self.verticalScrollBar(), self.horizontalScrollBar()
        v.setRange(0, max(0, int(self.layout_.height) - self.viewport().height()))
        v.setPageStep(self.viewport().height())
        v.setSingleStep(40)
        h.setRange(0, max(0, int(self.layout_.width) - self.viewport().width()))
        h.setPageStep(self.viewport().width())

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._update_bars()

    def _scrolled(self) -> None:
        page = self.current_page()
        if page != self._page:
            self._page = page
            self.page_changed.emit(page)
        self.viewport().update()

    # -- images and texts ---------------------------------------------------------

    def wanted_pages(self) -> list[int]:
        """The pages to have: those on screen, then ``AHEAD`` after, one before."""
        y = self.verticalScrollBar().value()
        shown = self.layout_.visible(y, y + self.viewport().height())
        after = range(shown.stop, min(self.page_count, shown.stop + AHEAD))
        before = [shown.start - 1] if shown.start > 0 else []
        return [*shown, *after, *before]

    def _ask(self) -> None:
        """Ask for what the view lacks, most wanted first: the images of the pages on
        screen, their texts, then the pages ahead (image, text)."""
        scale = round(self.zoom, 4)
        asks = []
        for page in self.wanted_pages():
            for key in ((RENDER, page, scale), (TEXT, page, 0.0)):
                have = (page, scale) in self.images if key[0] == RENDER else page in self.texts
                if not have and key not in self.asked:
                    self.asked.add(key)
                    asks.append(key)
        if asks:
            self.renderer.want_all(asks)

    def want_texts(self, pages: list[int]) -> None:
        """Ask for the texts of ``pages``, in that order (find reads them all)."""
        asks = [(TEXT, p, 0.0) for p in pages
                if p not in self.texts and (TEXT, p, 0.0) not in self.asked]
        self.asked.update(asks)
        if asks:
            self.renderer.want_all(asks)

    def want_text(self, page: int) -> None:
        key = (TEXT, page, 0.0)
        if page not in self.texts and key not in self.asked:
            self.asked.add(key)
            self.renderer.want(TEXT, page)

    def take_image(self, page: int, image: QImage) -> None:
        """An image of ``page`` at the zoom in use, made before the view asked."""
        self._rendered(page, round(self.zoom, 4), image)

    def _rendered(self, page: int, scale: float, image: QImage) -> None:
        self.asked.discard((RENDER, page, scale))
        self.images[(page, scale)] = image
        self.images.move_to_end((page, scale))
        while len(self.images) > KEPT:
            self.images.popitem(last=False)
        self.viewport().update()

    def _text(self, page: int, text: Any) -> None:
        self.asked.discard((TEXT, page, 0.0))
        self.texts[page] = text
        self.layout_.set_size(page, (text.width, text.height))
        self._update_bars()
        self.text_arrived.emit(page)
        self.viewport().update()

    def image_for(self, page: int) -> QImage | None:
        """The image of the zoom in use, or one of another zoom to stand in."""
        exact = self.images.get((page, round(self.zoom, 4)))
        if exact is not None:
            return exact
        return next((img for (p, _s), img in reversed(self.images.items()) if p == page), None)

    def has_page_image(self, page: int) -> bool:
        return (page, round(self.zoom, 4)) in self.images

    # -- painting -------------------------------------------------------------------

    def _view_rect(self, rect: tuple[float, float, float, float]) -> QRectF:
        x, y, w, h = rect
        return QRectF(x - self.horizontalScrollBar().value(),
                      y - self.verticalScrollBar().value(), w, h)

    def passage_on_screen(self, page: int, quads: list[list[float]]) -> QRect:
        """The rectangle around a passage (its quads on ``page``) in screen pixels, cut
        to the part of the view that shows it (empty when none does)."""
        around = QRectF()
        for box in quad_boxes(quads):
            around = around.united(self._view_rect(self.layout_.box_to_view(page, box)))
        shown = around.toAlignedRect().intersected(self.viewport().rect())
        if shown.isEmpty():
            return QRect()
        return QRect(self.viewport().mapToGlobal(shown.topLeft()), shown.size())

    def paintEvent(self, _event) -> None:
        painter = QPainter(self.viewport())
        y = self.verticalScrollBar().value()
        shown = self.layout_.visible(y, y + self.viewport().height())
        targets = {p: self._view_rect(self.layout_.rect(p)) for p in shown}
        around = QRegion(self.viewport().rect())  # the grey around the pages, not under
        for page, target in targets.items():
            around -= QRegion(self._covered(page, target))
        for rect in around:
            painter.fillRect(rect, BACKGROUND)
        for page, target in targets.items():
            image = self.image_for(page)
            if image is None:
                painter.fillRect(target, Qt.GlobalColor.white)
            elif self.has_page_image(page):
                # At its own size, on whole pixels: a copy, never a resampling.
                painter.drawImage(QPointF(round(target.x()), round(target.y())), image)
            else:  # another zoom's image stretched, until this zoom's comes
                painter.drawImage(target, image)
            self._paint_marks(painter, page)
        painter.end()
        self._ask()  # after the paint: the pages wanted render while it goes to the screen

    def _covered(self, page: int, target: QRectF) -> QRect:
        """The pixels the page's paint covers: its image's own, at whole pixels (PDFium
        rounds the page's size its way: a column left out here would show stale
        pixels, the viewport being opaque), else the page's rectangle."""
        image = self.images.get((page, round(self.zoom, 4)))
        if image is None:
            return target.toAlignedRect()
        dpr = image.devicePixelRatio() or 1.0  # whole pixels within it: the grey may go
        return QRect(round(target.x()), round(target.y()),  # under its last half pixel
                     int(image.width() / dpr), int(image.height() / dpr))

    def _fill_quads(self, painter: QPainter, page: int, boxes, fill: QColor) -> None:
        """Fill boxes as a highlighter pen does: multiplied, so that the ink stays black
        under any colour, and marks one over another (a hit on a highlight) stay legible."""
        painter.save()
        painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_Multiply)
        for box in boxes:
            painter.fillRect(self._view_rect(self.layout_.box_to_view(page, box)), fill)
        painter.restore()

    def _frame_quads(self, painter: QPainter, page: int, boxes) -> None:
        painter.save()
        painter.setPen(QPen(HIT, 1.5))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for box in boxes:
            painter.drawRect(self._view_rect(self.layout_.box_to_view(page, box)))
        painter.restore()

    def _paint_marks(self, painter: QPainter, page: int) -> None:
        for h in self.highlights:
            if h["page"] == page:
                fill = colour(HIGHLIGHT_COLOURS.get(h["colour"], "#ffd400"))
                self._fill_quads(painter, page, quad_boxes(h["quads"]), fill)
        text = self.texts.get(page)
        if text is None:
            return
        for n, (p, start, end) in enumerate(self.hits):
            if p == page:
                boxes = range_boxes(text, start, end)
                if n == self.current_hit:
                    self._fill_quads(painter, page, boxes, CURRENT_HIT)
                self._frame_quads(painter, page, boxes)
        if self.selection is not None and self.selection[0] == page:
            self._fill_quads(painter, page, range_boxes(text, *self.selection[1:]), SELECTED)

    # -- selecting with the mouse ----------------------------------------------------

    def _char_at(self, pos: QPointF) -> tuple[int, int | None]:
        vx = pos.x() + self.horizontalScrollBar().value()
        vy = pos.y() + self.verticalScrollBar().value()
        page = self.layout_.page_at(vy)
        text = self.texts.get(page)
        if text is None:
            self.want_text(page)
            return page, None
        return page, text.char_at(*self.layout_.to_page(page, vx, vy))

    def mousePressEvent(self, event) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return super().mousePressEvent(event)
        hit = self.highlight_at(event.position())
        if hit is not None:
            self.highlight_clicked.emit(hit)
        page, char = self._char_at(event.position())
        self._anchor = (page, char) if char is not None else None
        self.set_selection(None)

    def highlight_at(self, pos: QPointF) -> int | None:
        """The id of the highlight under a point of the view, or None."""
        vx = pos.x() + self.horizontalScrollBar().value()
        vy = pos.y() + self.verticalScrollBar().value()
        page = self.layout_.page_at(vy)
        x, y = self.layout_.to_page(page, vx, vy)
        for h in self.highlights:
            if h["page"] == page and any(left <= x <= right and bottom <= y <= top for
                                         left, bottom, right, top in quad_boxes(h["quads"])):
                return int(h["id"])
        return None

    def mouseMoveEvent(self, event) -> None:
        if self._anchor is None:
            return
        page, char = self._char_at(event.position())
        if char is not None and page == self._anchor[0]:
            start, end = self.texts[page].selected(self._anchor[1], char)
            self.set_selection((page, start, end))

    def mouseReleaseEvent(self, event) -> None:
        self.mouseMoveEvent(event)
        self._anchor = None

    def set_selection(self, selection: tuple[int, int, int] | None) -> None:
        if selection != self.selection:
            self.selection = selection
            self.selection_changed.emit()
            self.viewport().update()

    def selected_text(self) -> str:
        if self.selection is None:
            return ""
        page, start, end = self.selection
        return self.texts[page].text_of(start, end)

"""The reader's rendering thread: pages into QImages, and their text, off the UI thread.

The thread owns the reader's ``Document`` (the core's, which asks the sandbox
process for everything; PDFium is not thread-safe, and a hostile file's time and
memory stay bounded there). The UI asks for pages with ``want`` and ``want_all``; the
newest asks go first, in the order given (the page on screen before the ones ahead),
one ask is never queued twice,
and ``forget`` drops what waits when the zoom changes. What comes back comes
through signals, to the UI thread: ``rendered(page, scale, image)``,
``text_ready(page, PageText)``, ``failed(message)`` as one line.

``page_image`` is the one rendering call: the sandbox's BGRA bytes (from shared
memory, good until the next render: copied here at once) as a QImage at the
screen's device pixel ratio. The image is of ``Format_RGB32``: a page is opaque
(PDFium fills it white first), and an opaque image is drawn onto the screen as a
plain copy, where one with alpha is blended pixel by pixel at every paint.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from PySide6.QtCore import QThread, Signal
from PySide6.QtGui import QImage

from paperdesk.core.api import PaperDeskError

RENDER, TEXT = "render", "text"


def page_image(doc: Any, page: int, scale: float, dpr: float) -> QImage:
    """Page ``page`` rendered at ``scale`` pixels a point on a screen of ratio ``dpr``."""
    return as_image(doc.render(page, scale * dpr), dpr)


def as_image(rendered: tuple[bytes | memoryview, int, int, int], dpr: float) -> QImage:
    """The sandbox's BGRA bytes (data, width, height, bytes a row) as a QImage."""
    data, width, height, stride = rendered
    image = QImage(data, width, height, stride, QImage.Format.Format_RGB32).copy()
    image.setDevicePixelRatio(dpr)
    return image


class Renderer(QThread):
    rendered = Signal(int, float, QImage)  # page, scale, image
    text_ready = Signal(int, object)       # page, PageText
    failed = Signal(str)

    def __init__(self, doc: Any, dpr: float, parent=None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.dpr = dpr
        self._asks: OrderedDict[tuple[str, int, float], None] = OrderedDict()
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._stop = False
        self.calls = 0  # renders and texts asked of the sandbox (the tests count them)

    def want(self, kind: str, page: int, scale: float = 0.0) -> None:
        """Ask for a page's image at ``scale`` (RENDER) or its text (TEXT)."""
        self.want_all([(kind, page, scale)])

    def want_all(self, asks: list[tuple[str, int, float]]) -> None:
        """Ask for several, the most wanted first: they go before everything that waits,
        in that order, all at once (the thread never takes a later one first)."""
        with self._wake:
            for kind, page, scale in reversed(asks):
                key = (kind, page, round(scale, 4))
                self._asks.pop(key, None)
                self._asks[key] = None  # the newest last: taken first
            self._wake.notify()

    def forget(self, kind: str = RENDER) -> None:
        """Drop the asks of ``kind`` that wait (a zoom made them useless)."""
        with self._wake:
            for key in [k for k in self._asks if k[0] == kind]:
                del self._asks[key]

    def stop(self) -> None:
        with self._wake:
            self._stop = True
            self._asks.clear()
            self._wake.notify()
        self.wait(10_000)
        close = getattr(self.doc, "close", None)
        if close is not None:
            close()

    def _next(self) -> tuple[str, int, float] | None:
        with self._wake:
            while not self._asks and not self._stop:
                self._wake.wait()
            if self._stop:
                return None
            key, _ = self._asks.popitem(last=True)
            return key

    def run(self) -> None:
        while (key := self._next()) is not None:
            kind, page, scale = key
            self.calls += 1
            try:
                if kind == RENDER:
                    self.rendered.emit(page, scale, page_image(self.doc, page, scale, self.dpr))
                else:
                    self.text_ready.emit(page, self.doc.page_text(page))
            except PaperDeskError as exc:
                self.failed.emit(str(exc))
            except Exception as exc:  # a page the engine cannot read: a line, the reader lives
                self.failed.emit(f"page {page + 1} could not be read: {exc}")

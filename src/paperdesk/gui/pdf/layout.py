"""Where each page of a PDF sits in the reader's continuous scroll.

Pages stand one under the other, centred, ``GAP`` pixels apart, each as large as
its size in points times the zoom (device-independent pixels per point). Pure
geometry over plain numbers: which pages a stretch of the scroll shows, the page
under a point, a page's top, the zoom that fits the widest page in a width, and
the mapping between a page's PDF points (origin at its lower left) and the view.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

GAP = 12          # pixels between pages and around them
MIN_ZOOM, MAX_ZOOM = 0.25, 6.0
ZOOM_STEP = 1.2   # one Zoom in or out
START_ZOOM = 1.0  # a reader opens at a point a pixel (a pixel of the screen's scale)


@dataclass
class Layout:
    sizes: list[tuple[float, float]]  # each page's (width, height) in points
    zoom: float = START_ZOOM
    view_width: int = 800             # the viewport's width, to centre the pages
    _tops: list[float] = field(default_factory=list, init=False, repr=False)

    def __post_init__(self) -> None:
        self.relayout()

    def relayout(self) -> None:
        self._tops = []
        y = float(GAP)
        for _w, h in self.sizes:
            self._tops.append(y)
            y += h * self.zoom + GAP
        self._height = y

    def set_zoom(self, zoom: float) -> float:
        self.zoom = min(MAX_ZOOM, max(MIN_ZOOM, zoom))
        self.relayout()
        return self.zoom

    def set_size(self, page: int, size: tuple[float, float]) -> None:
        """A page's real size, learnt when its text or image came."""
        if self.sizes[page] != size:
            self.sizes[page] = size
            self.relayout()

    @property
    def height(self) -> float:
        return self._height

    @property
    def width(self) -> float:
        widest = max((w for w, _h in self.sizes), default=0.0)
        return widest * self.zoom + 2 * GAP

    def fit_width_zoom(self, width: int) -> float:
        widest = max((w for w, _h in self.sizes), default=0.0)
        return (width - 2 * GAP) / widest if widest else self.zoom

    def top(self, page: int) -> float:
        return self._tops[page]

    def rect(self, page: int) -> tuple[float, float, float, float]:
        """(x, y, width, height) of a page in the scroll's pixels."""
        w, h = self.sizes[page]
        pw, ph = w * self.zoom, h * self.zoom
        x = max(GAP, (max(self.view_width, self.width) - pw) / 2)
        return (x, self._tops[page], pw, ph)

    def page_at(self, y: float) -> int:
        """The page at height ``y`` of the scroll (the one above, in a gap)."""
        if not self.sizes:
            return 0
        return max(0, min(len(self.sizes) - 1, bisect.bisect_right(self._tops, y) - 1))

    def visible(self, y0: float, y1: float) -> range:
        """The pages that show between heights ``y0`` and ``y1``."""
        if not self.sizes:
            return range(0)
        return range(self.page_at(y0), self.page_at(y1) + 1)

    # -- points and pixels --------------------------------------------------------

    def to_view(self, page: int, x: float, y: float) -> tuple[float, float]:
        """A point of the page (PDF points, origin lower left) in the scroll's pixels."""
        px, py, _pw, _ph = self.rect(page)
        return (px + x * self.zoom, py + (self.sizes[page][1] - y) * self.zoom)

    def to_page(self, page: int, vx: float, vy: float) -> tuple[float, float]:
        px, py, _pw, _ph = self.rect(page)
        return ((vx - px) / self.zoom, self.sizes[page][1] - (vy - py) / self.zoom)

    def box_to_view(self, page: int, box: tuple[float, float, float, float]
                    ) -> tuple[float, float, float, float]:
        """A box (left, bottom, right, top in points) as (x, y, width, height) pixels."""
        x0, y0 = self.to_view(page, box[0], box[3])
        x1, y1 = self.to_view(page, box[2], box[1])
        return (x0, y0, x1 - x0, y1 - y0)

"""A small chart of a paper's upvotes across the digests that showed it, and the
Hugging Face Hub's own count.

Drawn with QPainter: a line through one point per digest (its date, the
upvotes it printed), the highest and lowest values labelled level with their
points and the first and last dates under theirs. The Hub's count (completed from
the Hub, on the day it was read) is a point of its own beside them: a hollow
diamond, not on the digests' line, labelled "Hub N". A painter
of our own rather than QtCharts: QtCharts ships in PySide6-Addons, a second
package of well over 100 MB, for one small line chart.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QSizePolicy, QWidget

HUB_COLOUR = QColor(255, 140, 0)  # the Hub's orange, apart from the digests' accent


def points(sightings: Sequence[dict[str, Any]]) -> list[tuple[dt.date, int]]:
    """(date, upvotes) per digest that printed upvotes, oldest first; one per date
    (the highest, when two digests of a day differ)."""
    best: dict[dt.date, int] = {}
    for s in sightings:
        if s.get("upvotes") is None or not s.get("digest_date"):
            continue
        try:
            day = dt.date.fromisoformat(str(s["digest_date"])[:10])
        except ValueError:
            continue
        best[day] = max(best.get(day, 0), int(s["upvotes"]))
    return sorted(best.items())


def hub_point(paper: dict[str, Any] | None) -> tuple[dt.date, int] | None:
    """(the day it was read, the count) of the Hub's upvotes for ``paper``, or None."""
    if not paper or paper.get("hub_upvotes") is None:
        return None
    entry = (paper.get("sources") or {}).get("upvotes") or {}
    stamp = entry.get("at") if isinstance(entry, dict) else None
    try:
        day = dt.date.fromisoformat(str(stamp or paper.get("modified") or "")[:10])
    except ValueError:
        return None
    return day, int(paper["hub_upvotes"])


class UpvoteChart(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("upvote-chart")
        self.data: list[tuple[dt.date, int]] = []
        self.hub: tuple[dt.date, int] | None = None  # the Hub's count, beside the digests'
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setToolTip("Upvotes printed by each digest that showed the paper")

    def sizeHint(self) -> QSize:
        return QSize(280, 120)

    def minimumSizeHint(self) -> QSize:
        return QSize(160, 110)

    def set_sightings(self, sightings: Sequence[dict[str, Any]],
                      hub: tuple[dt.date, int] | None = None) -> None:
        """The digests' points, and the Hub's count (``hub_point``) beside them."""
        self.data = points(sightings)
        self.hub = hub
        lines = [f"{d.isoformat()}: {v}" for d, v in self.data]
        if hub is not None:
            lines.append(f"Hugging Face Hub, {hub[0].isoformat()}: {hub[1]}")
        self.setToolTip("Upvotes by digest date:\n" + "\n".join(lines) if lines
                        else "No digest printed upvotes for this paper")
        self.update()

    def _scale(self) -> tuple[dt.date, int, int, int]:
        """(first day, days spanned, lowest, highest) over the digests and the Hub."""
        every = self.data + ([self.hub] if self.hub is not None else [])
        first = min(d for d, _v in every)
        span = max((max(d for d, _v in every) - first).days, 1)
        return first, span, min(v for _d, v in every), max(v for _d, v in every)

    def _at(self, day: dt.date, value: int, alone: bool) -> QPointF:
        area = self._plot()
        first, span, low, high = self._scale()
        x = area.left() + (area.width() / 2 if alone else area.width() * (day - first).days / span)
        y = area.bottom() - area.height() * ((value - low) / (high - low) if high > low else 0.5)
        return QPointF(x, y)

    def positions(self) -> list[QPointF]:
        """Where each digest's point is drawn (also what tests read)."""
        alone = len(self.data) + (self.hub is not None) == 1
        return [self._at(d, v, alone) for d, v in self.data]

    def hub_position(self) -> QPointF | None:
        """Where the Hub's point is drawn, or None."""
        if self.hub is None:
            return None
        return self._at(*self.hub, alone=not self.data)

    def labels(self) -> list[tuple[str, str, QRectF]]:
        """The axis labels ("value" or "date", text, where): the highest and lowest
        upvotes level with their points, the first and last dates centred under
        theirs (kept inside the chart). A lone point sits mid-plot; so do its labels."""
        spots = self.positions()
        out = self._hub_label()
        if not spots:
            return out
        fm = self.fontMetrics()
        area = self._plot()
        tall = fm.height()
        values = [v for _d, v in self.data]
        for value in sorted({max(values), min(values)}, reverse=True):
            y = spots[values.index(value)].y()
            out.append(("value", str(value), QRectF(0, y - tall / 2, area.left() - 6, tall)))
        for i in sorted({0, len(spots) - 1}):
            label = self.data[i][0].strftime("%b %d")
            wide = fm.horizontalAdvance(label) + 4
            x = min(max(spots[i].x() - wide / 2, 0.0), self.width() - wide)
            out.append(("date", label, QRectF(x, area.bottom() + 4, wide, tall)))
        return out

    def _hub_label(self) -> list[tuple[str, str, QRectF]]:
        """"Hub N" beside the Hub's point (left of it when it is near the right edge)."""
        spot = self.hub_position()
        if spot is None:
            return []
        fm = self.fontMetrics()
        text = f"Hub {self.hub[1]}"
        wide, tall = fm.horizontalAdvance(text) + 4, fm.height()
        x = spot.x() + 7 if spot.x() + 7 + wide <= self.width() else spot.x() - 7 - wide
        return [("hub", text, QRectF(x, spot.y() - tall / 2, wide, tall))]

    def _plot(self) -> QRectF:
        fm = self.fontMetrics()
        return QRectF(self.rect()).adjusted(fm.horizontalAdvance("0000") + 8, fm.height() + 4,
                                            -10, -fm.height() - 6)

    def paintEvent(self, _event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        area = self._plot()
        fm = self.fontMetrics()
        muted = QColor(pal.color(pal.ColorRole.WindowText))
        muted.setAlpha(110)
        painter.setPen(QPen(muted, 1))
        painter.drawLine(area.bottomLeft(), area.bottomRight())
        painter.drawLine(area.bottomLeft(), area.topLeft())
        if not self.data and self.hub is None:
            painter.drawText(self.rect(), int(Qt.AlignmentFlag.AlignCenter),
                             "no upvotes printed")
            return
        spots = self.positions()
        accent = pal.color(pal.ColorRole.Highlight)
        if spots:
            path = QPainterPath(spots[0])
            for p in spots[1:]:
                path.lineTo(p)
            painter.setPen(QPen(accent, 2))
            painter.drawPath(path)
            painter.setBrush(accent)
            for p in spots:
                painter.drawEllipse(p, 3.5, 3.5)
        if (hub := self.hub_position()) is not None:  # a hollow diamond, off the line
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(QPen(HUB_COLOUR, 2))
            painter.drawPolygon(QPolygonF([hub + QPointF(0, -5), hub + QPointF(5, 0),
                                           hub + QPointF(0, 5), hub + QPointF(-5, 0)]))
        text = pal.color(pal.ColorRole.WindowText)
        centre = int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        right = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        for kind, label, rect in self.labels():
            painter.setPen({"value": text, "hub": HUB_COLOUR}.get(kind, muted))
            left = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
            painter.drawText(rect, {"value": right, "hub": left}.get(kind, centre), label)
        painter.setPen(pal.color(pal.ColorRole.WindowText))
        painter.drawText(QRectF(area.left(), 0, area.width(), fm.height() + 2),
                         int(Qt.AlignmentFlag.AlignLeft), "Upvotes")

"""A small chart of a paper's upvotes across the digests that showed it.

Drawn with QPainter: a line through one point per digest (its date, the
upvotes it printed), the highest and lowest values labelled level with their
points and the first and last dates under theirs. A painter
of our own rather than QtCharts: QtCharts ships in PySide6-Addons, a second
package of well over 100 MB, for one small line chart.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget


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


class UpvoteChart(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("upvote-chart")
        self.data: list[tuple[dt.date, int]] = []
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setToolTip("Upvotes printed by each digest that showed the paper")

    def sizeHint(self) -> QSize:
        return QSize(280, 120)

    def minimumSizeHint(self) -> QSize:
        return QSize(160, 110)

    def set_sightings(self, sightings: Sequence[dict[str, Any]]) -> None:
        self.data = points(sightings)
        self.setToolTip("Upvotes by digest date:\n" + "\n".join(
            f"{d.isoformat()}: {v}" for d, v in self.data) if self.data
            else "No digest printed upvotes for this paper")
        self.update()

    def positions(self) -> list[QPointF]:
        """Where each point is drawn (also what tests read)."""
        area = self._plot()
        if not self.data:
            return []
        days = [(d - self.data[0][0]).days for d, _v in self.data]
        span = max(days[-1], 1)
        low = min(v for _d, v in self.data)
        high = max(v for _d, v in self.data)
        rise = max(high - low, 1)
        out = []
        for day, (_d, v) in zip(days, self.data, strict=True):
            x = area.left() + (area.width() * day / span if len(self.data) > 1
                               else area.width() / 2)
            y = area.bottom() - area.height() * ((v - low) / rise if high > low else 0.5)
            out.append(QPointF(x, y))
        return out

    def labels(self) -> list[tuple[str, str, QRectF]]:
        """The axis labels ("value" or "date", text, where): the highest and lowest
        upvotes level with their points, the first and last dates centred under
        theirs (kept inside the chart). A lone point sits mid-plot; so do its labels."""
        spots = self.positions()
        if not spots:
            return []
        fm = self.fontMetrics()
        area = self._plot()
        tall = fm.height()
        values = [v for _d, v in self.data]
        out = []
        for value in sorted({max(values), min(values)}, reverse=True):
            y = spots[values.index(value)].y()
            out.append(("value", str(value), QRectF(0, y - tall / 2, area.left() - 6, tall)))
        for i in sorted({0, len(spots) - 1}):
            label = self.data[i][0].strftime("%b %d")
            wide = fm.horizontalAdvance(label) + 4
            x = min(max(spots[i].x() - wide / 2, 0.0), self.width() - wide)
            out.append(("date", label, QRectF(x, area.bottom() + 4, wide, tall)))
        return out

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
        if not self.data:
            painter.drawText(self.rect(), int(Qt.AlignmentFlag.AlignCenter),
                             "no upvotes printed")
            return
        spots = self.positions()
        accent = pal.color(pal.ColorRole.Highlight)
        path = QPainterPath(spots[0])
        for p in spots[1:]:
            path.lineTo(p)
        painter.setPen(QPen(accent, 2))
        painter.drawPath(path)
        painter.setBrush(accent)
        for p in spots:
            painter.drawEllipse(p, 3.5, 3.5)
        text = pal.color(pal.ColorRole.WindowText)
        centre = int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        right = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        for kind, label, rect in self.labels():
            painter.setPen(text if kind == "value" else muted)
            painter.drawText(rect, right if kind == "value" else centre, label)
        painter.setPen(pal.color(pal.ColorRole.WindowText))
        painter.drawText(QRectF(area.left(), 0, area.width(), fm.height() + 2),
                         int(Qt.AlignmentFlag.AlignLeft), "Upvotes")

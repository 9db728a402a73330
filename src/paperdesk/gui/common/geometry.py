"""Keeping the window on its screen, whatever the scale factor or the saved size."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QSplitter, QStyle, QWidget

FIRST_RUN = QSize(1440, 820)
SHARE = 0.9  # of the screen a first window takes at most


def first_size(window: QWidget) -> QSize:
    """Roomy on a big screen, never larger than most of it; all of a small screen
    (one narrower than the roomy size, e.g. 1600 pixels at QT_SCALE_FACTOR=2)."""
    screen = window.screen().availableGeometry()
    small = screen.width() * SHARE < FIRST_RUN.width()
    share = 1.0 if small else SHARE
    return QSize(min(FIRST_RUN.width(), int(screen.width() * share)),
                 min(FIRST_RUN.height(), int(screen.height() * share)))


def fit_to_screen(window: QWidget) -> None:
    """Shrink and move ``window`` (frame included) into its screen's available area.

    The screen is in device-independent pixels, so this holds at any
    QT_SCALE_FACTOR. Before the window manager has framed it, a title bar's height
    is counted above the window. The window's minimum size is lowered where its contents'
    minimum would not fit, so ``resize`` is not refused.
    """
    area = window.screen().availableGeometry()
    frame = window.frameGeometry()
    if frame == window.geometry() and window.isWindow():
        # No frame known yet (the window manager adds it once the window is mapped):
        # leave room for a title bar above, so that it is never off the screen.
        title = window.style().pixelMetric(QStyle.PixelMetric.PM_TitleBarHeight, None, window)
        frame = frame.adjusted(0, -title, 0, 0)
    extra_w = max(0, frame.width() - window.width())
    extra_h = max(0, frame.height() - window.height())
    room = QSize(max(200, area.width() - extra_w), max(150, area.height() - extra_h))
    least = window.minimumSizeHint().boundedTo(room)
    window.setMinimumSize(least)
    size = window.size().boundedTo(room)
    if size != window.size():
        window.resize(size)
    x = min(max(frame.x(), area.left()), area.right() + 1 - size.width() - extra_w)
    y = min(max(frame.y(), area.top()), area.bottom() + 1 - size.height() - extra_h)
    if (x, y) != (frame.x(), frame.y()):
        window.move(x, y)


PANES = (210, 870, 360)  # sidebar, table, detail pane on a roomy window
TABLE_SHARE = 0.45  # of the panes' width the table keeps at least


def share_panes(splitter: QSplitter) -> None:
    """Give the sidebar, table and detail pane widths that fit the splitter.

    On a roomy window they are ``PANES``; on a narrow one (a small screen, or
    QT_SCALE_FACTOR=2, where a 1600-pixel screen is 800 wide) all three shrink
    in proportion down to the side panes' minimums, so that the table keeps
    the most room. Sizes restored from another screen or scale that leave the
    table less than ``TABLE_SHARE`` of the width are shared again.
    """
    total = sum(splitter.sizes())
    if total <= 0 or splitter.sizes()[1] >= TABLE_SHARE * total:
        return
    scale = min(1.0, total / sum(PANES))
    side = [max(splitter.widget(i).minimumWidth(), round(PANES[i] * scale)) for i in (0, 2)]
    splitter.setSizes([side[0], max(0, total - sum(side)), side[1]])

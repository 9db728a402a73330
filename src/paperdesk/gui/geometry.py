"""Keeping the window on its screen, whatever the scale factor or the saved size."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QWidget

FIRST_RUN = QSize(1440, 820)
SHARE = 0.9  # of the screen a first window takes at most


def first_size(window: QWidget) -> QSize:
    """Roomy on a big screen, never larger than most of a small one."""
    screen = window.screen().availableGeometry()
    return QSize(min(FIRST_RUN.width(), int(screen.width() * SHARE)),
                 min(FIRST_RUN.height(), int(screen.height() * SHARE)))


def fit_to_screen(window: QWidget) -> None:
    """Shrink and move ``window`` (frame included) into its screen's available area.

    The screen is in device-independent pixels, so this holds at any
    QT_SCALE_FACTOR. The window's minimum size is lowered where its contents'
    minimum would not fit, so ``resize`` is not refused.
    """
    area = window.screen().availableGeometry()
    frame = window.frameGeometry()
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

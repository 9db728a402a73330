"""SVG icons from resources/icons, tinted with the palette's text colour for light and dark."""

from __future__ import annotations

import functools

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPalette, QPixmap
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QApplication

from paperdesk.core.api import resource

SIZES = (16, 24, 32, 48)


@functools.cache
def _renderer(name: str) -> QSvgRenderer:
    return QSvgRenderer(str(resource(f"icons/{name}.svg")))


def pixmap(name: str, size: int, color: QColor) -> QPixmap:
    """The icon ``name`` at ``size`` device-independent pixels, tinted ``color``."""
    app = QApplication.instance()
    ratio = app.devicePixelRatio() if app is not None else 1.0
    pm = QPixmap(int(size * ratio), int(size * ratio))
    pm.setDevicePixelRatio(ratio)
    pm.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pm)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    _renderer(name).render(painter, QRectF(0, 0, size, size))
    painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceIn)
    painter.fillRect(QRectF(0, 0, size, size), color)
    painter.end()
    return pm


def icon(name: str, role: QPalette.ColorRole = QPalette.ColorRole.WindowText) -> QIcon:
    """An icon for menus, toolbars and lists, in the current palette."""
    palette = QApplication.palette()
    return _icon(name, role, palette.color(role).rgba(),
                 palette.color(QPalette.ColorGroup.Disabled, role).rgba())


@functools.cache
def _icon(name: str, role: QPalette.ColorRole, normal: int, disabled: int) -> QIcon:
    palette = QApplication.palette()
    result = QIcon()
    for size in SIZES:
        result.addPixmap(pixmap(name, size, palette.color(role)))
        disabled = palette.color(QPalette.ColorGroup.Disabled, role)
        result.addPixmap(pixmap(name, size, disabled), QIcon.Mode.Disabled)
    return result

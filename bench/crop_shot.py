"""Crop a screenshot to a rectangle and save it as PNG: for docs/screenshots.

    .venv/bin/python bench/crop_shot.py IN.png OUT.png X Y WIDTH HEIGHT [--half]

``--half`` also halves its size (a scale-2 shot at the size a reader sees it)."""

from __future__ import annotations

import sys

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--half"]
    source, target = args[0], args[1]
    x, y, w, h = (int(v) for v in args[2:6])
    _app = QGuiApplication(["crop", "-platform", "offscreen"])
    image = QImage(source).copy(x, y, w, h)
    if "--half" in sys.argv:
        image = image.scaled(w // 2, h // 2, Qt.AspectRatioMode.KeepAspectRatio,
                             Qt.TransformationMode.SmoothTransformation)
    if not image.save(target, "PNG", 9):
        sys.exit(f"crop_shot: cannot write {target}")


if __name__ == "__main__":
    main()

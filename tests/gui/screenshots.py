"""Saving a widget's picture; with PAPERDESK_SCREENSHOTS=1 it also goes to docs/screenshots/."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def save_screenshot(widget, tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    image = widget.grab()
    assert image.save(str(path))
    assert image.width() > 400 and image.height() > 200
    if os.environ.get("PAPERDESK_SCREENSHOTS"):
        DOCS.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, DOCS / name)
    return path

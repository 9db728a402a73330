"""The files the window writes follow the umask: its settings and a dragged-out .bib."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from paperdesk.core.db.paths import data_dir
from paperdesk.gui.common import clipboard, settings


@pytest.fixture
def umask_027():
    old = os.umask(0o027)
    yield
    os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_settings_and_dragged_files_follow_the_umask(window, seed_lib, umask_027):
    ini = data_dir() / "gui.ini"
    ini.unlink(missing_ok=True)
    settings.save({"test/value": 1})
    assert mode(ini) == 0o640
    data = clipboard.drag_mime(seed_lib, seed_lib.search("").ids[:2])
    dragged = Path(data.urls()[0].toLocalFile())
    assert mode(dragged) == 0o640
    assert mode(dragged.parent) == 0o700  # a private folder of its own

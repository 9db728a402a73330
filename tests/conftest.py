"""Shared fixtures. Qt runs offscreen; every test gets its own data folder."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # before anything loads Qt

import pytest
from hypothesis import settings as hypothesis_settings

if os.environ.get("CI") == "true":
    # CI explores the same examples every run, so a red build is about the change.
    hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True)
    hypothesis_settings.load_profile("ci")

from paperdesk.core.library import Library

ROOT = Path(__file__).resolve().parent.parent
SEEDS = sorted((ROOT / "seeds").glob("*.txt"))


@pytest.fixture(scope="session", autouse=True)
def _session_data(tmp_path_factory):
    """A data folder for what runs outside a test (module-scoped fixtures): without
    it they record their libraries in the real user's list of known libraries, and
    a later run (with a basetemp path used before) is refused them as missing."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PAPERDESK_DATA_DIR", str(tmp_path_factory.mktemp("session-data")))
        patch.delenv("PAPERDESK_LIBRARY", raising=False)
        yield


@pytest.fixture(autouse=True)
def _isolated_data(tmp_path_factory, monkeypatch):
    data = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("PAPERDESK_DATA_DIR", str(data))
    monkeypatch.delenv("PAPERDESK_LIBRARY", raising=False)
    return data


@pytest.fixture
def seeds(tmp_path) -> list[Path]:
    """Copies of the seed digests (tests may touch their dates)."""
    folder = tmp_path / "seeds"
    folder.mkdir()
    return [Path(shutil.copy2(p, folder / p.name)) for p in SEEDS]


@pytest.fixture
def lib(tmp_path):
    library = Library.open(tmp_path / "library.sqlite")
    yield library
    library.close()


@pytest.fixture
def seed_lib(lib, seeds):
    reports = lib.import_paths(seeds)
    assert [r.status for r in reports] == ["imported"] * 5
    return lib


def pytest_sessionfinish(session, exitstatus):
    """Empty the clipboard before Qt is torn down.

    Qt's offscreen platform crashes at exit (SIGSEGV) when the clipboard still
    holds data given to it with ``setMimeData``; the xcb and wayland platforms
    do not. Without this, a run whose last clipboard test copies several
    formats would pass every test and still exit 139.
    """
    import sys

    widgets = sys.modules.get("PySide6.QtWidgets")
    if widgets is not None and widgets.QApplication.instance() is not None:
        widgets.QApplication.clipboard().clear()

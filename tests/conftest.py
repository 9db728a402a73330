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
# What the seeds hold, in one place (tests/core/test_digest.py and test_import.py check
# these against the files): 267 entries in 5 digests, 193 distinct papers.
SEED_ENTRIES = 267
SEED_PAPERS = 193


def pytest_xdist_auto_num_workers(config) -> int:
    """``-n auto`` (the default run): a worker process per core this run may use, up to
    four; on one core, none (the tests run in pytest's own process)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return min(cores, 4) if cores > 1 else 0


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


@pytest.fixture(scope="session")
def _seed_template(tmp_path_factory, _session_data) -> Path:
    """The seeds imported once per run into a closed library file; ``seed_lib`` copies it
    (a copy takes a few milliseconds, an import of the seeds a few tenths of a second)."""
    folder = tmp_path_factory.mktemp("seed-template")
    seeds = [Path(shutil.copy2(p, folder / p.name)) for p in SEEDS]
    library = Library.open(folder / "library.sqlite")
    reports = library.import_paths(seeds)
    library.close()
    assert [r.status for r in reports] == ["imported"] * 5
    assert not Path(f"{folder / 'library.sqlite'}-wal").exists()
    return folder / "library.sqlite"


@pytest.fixture
def lib(tmp_path, request):
    """The test's library: empty, or (for a test that asks for ``seed_lib``) the seeds'."""
    path = tmp_path / "library.sqlite"
    if "seed_lib" in request.fixturenames:
        shutil.copyfile(request.getfixturevalue("_seed_template"), path)
    library = Library.open(path)
    yield library
    library.close()


@pytest.fixture
def seed_path(tmp_path, _seed_template) -> Path:
    """A closed library file holding the seeds, for tests that run commands on it."""
    return Path(shutil.copyfile(_seed_template, tmp_path / "seeds.sqlite"))


@pytest.fixture
def seed_lib(lib, seeds):
    """A library holding the five seed digests, imported from the test's own copies."""
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

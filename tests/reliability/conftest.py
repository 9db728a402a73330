"""Fixtures shared by the reliability tests."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from paperdesk.core.library import Library
from tests.conftest import SEEDS
from tests.reliability.helpers import curate


@pytest.fixture(scope="session")
def _curated_template(tmp_path_factory, _session_data) -> Path:
    """Three seed digests imported and curated once per run, in a closed file."""
    folder = tmp_path_factory.mktemp("curated-template")
    path = folder / "library.sqlite"
    with Library.open(path) as lib:
        lib.import_paths([Path(shutil.copy2(p, folder / p.name)) for p in SEEDS[:3]])
        curate(lib)
    return path


@pytest.fixture
def curated(tmp_path, _curated_template) -> Path:
    """A library of three seed digests with tags, notes, ratings and statuses, in a
    folder of its own (its backups go beside it), known here (opened once): a copy of
    ``_curated_template``, a few milliseconds where an import and curation took tenths."""
    path = tmp_path / "lib" / "library.sqlite"
    path.parent.mkdir()
    shutil.copyfile(_curated_template, path)
    Library.open(path).close()
    return path


@pytest.fixture
def one_digest(tmp_path, seeds) -> Path:
    """A library of one seed digest, nothing else, known here (opened once)."""
    path = tmp_path / "library.sqlite"
    with Library.open(path) as lib:
        lib.import_paths(seeds[:1])
    return path

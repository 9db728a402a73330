"""Fixtures shared by the reliability tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperdesk.core.library import Library
from tests.reliability.helpers import curate


@pytest.fixture
def curated(tmp_path, seeds) -> Path:
    """A library of three seed digests with tags, notes, ratings and statuses, in a
    folder of its own (its backups go beside it)."""
    path = tmp_path / "lib" / "library.sqlite"
    path.parent.mkdir()
    with Library.open(path) as lib:
        lib.import_paths(seeds[:3])
        curate(lib)
    return path

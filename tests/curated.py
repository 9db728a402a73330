"""The curated seed library the search tests share: the seeds with tags, ratings,
statuses and notes spread over them, built once into a file that each test copies."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from paperdesk.core.library import Library
from tests.conftest import SEEDS


def curate(lib: Library) -> list[int]:
    """Tags, ratings, statuses and notes over the library's papers; their ids in order."""
    ids = lib.search("").ids
    c = lib.curation
    c.add_tags(ids[::3], ["Vision"])
    c.add_tags(ids[1::4], ["LLM", "Agents"])
    c.add_tags(ids[::10], ["deep RL"])
    for stars in range(6):
        c.set_rating(ids[stars::7], stars)
    c.set_status(ids[::5], "to-read")
    c.set_status(ids[2::7], "read")
    c.add_note(ids[4], "Compare with the zebrafish results.")
    c.add_note(ids[9], "A second look at benchmark contamination.")
    return ids


def build_curated(path: Path, then: Callable[[Library, list[int]], None] | None = None) -> Path:
    """The seeds imported into a new library at ``path`` and curated; ``then(lib, ids)``
    changes more before the file is checkpointed whole."""
    with Library.open(path) as lib:
        assert all(r.status == "imported" for r in lib.import_paths(SEEDS))
        ids = curate(lib)
        if then is not None:
            then(lib, ids)
        lib.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


def open_copy(path: Path, folder: Path) -> Library:
    """A library opened on a fresh copy of the file at ``path``."""
    return Library.open(shutil.copy(path, folder / path.name))


def found(lib: Library, query: str) -> set[int]:
    return set(lib.search(query).ids)

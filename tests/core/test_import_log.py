"""An import's commit syncs the write-ahead log and leaves copying it into the main
file (the checkpoint) for later: closing the library, or a later commit."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from paperdesk.core.db import store
from paperdesk.core.library import Library
from tests.conftest import SEED_PAPERS

PRAGMAS = ("synchronous", "wal_autocheckpoint", "cache_size", "secure_delete")


def pragmas(lib: Library) -> dict[str, int]:
    return {name: lib.db.execute(f"PRAGMA {name}").fetchone()[0] for name in PRAGMAS}


def main_file_papers(path: Path) -> int:
    """Papers in the main file alone, without what its write-ahead log holds."""
    conn = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
    try:
        return conn.execute("SELECT count(*) FROM papers").fetchone()[0]
    finally:
        conn.close()


def test_the_import_commits_with_a_synced_log_then_settings_come_back(lib, seeds):
    before = pragmas(lib)
    assert before["synchronous"] == 1  # NORMAL, as every library opens
    during: list[dict[str, int]] = []

    def progress(fraction: float, message: str) -> None:
        if message.startswith("Writing"):  # inside the import's write
            during.append(pragmas(lib))

    reports = lib.import_paths(seeds[:2], progress)
    assert [r.status for r in reports] == ["imported"] * 2
    assert len(during) == 2
    for seen in during:
        assert seen["synchronous"] == 2  # FULL: the commit syncs the log, durable on return
        assert seen["wal_autocheckpoint"] == store.LARGE_WRITE_LOG_BYTES // store.PAGE_SIZE
        assert -seen["cache_size"] >= store.LARGE_WRITE_CACHE_KIB
        assert seen["secure_delete"] == 2  # FAST: pages freed by index merges not rewritten
    assert pragmas(lib) == before


def test_a_bib_import_writes_with_the_same_settings(lib, tmp_path):
    """A large .bib file is the largest write there is: its pages stay in the larger
    cache too, and its commit syncs the log."""
    before = pragmas(lib)
    path = tmp_path / "refs.bib"
    path.write_text("".join(f"@misc{{k{n}, title = {{Paper {n}}}, year = 2001}}\n"
                            for n in range(50)), encoding="utf-8")
    during: list[dict[str, int]] = []

    def progress(fraction: float, message: str) -> None:
        if message.startswith("Matching"):  # inside the import's write
            during.append(pragmas(lib))

    assert lib.import_paths([path], progress)[0].status == "imported"
    assert during and all(seen["synchronous"] == 2 and -seen["cache_size"]
                          >= store.LARGE_WRITE_CACHE_KIB for seen in during)
    assert pragmas(lib) == before


def test_the_log_goes_into_the_main_file_when_the_importer_closes(tmp_path, seeds):
    """As in the window: it keeps the library open while a worker imports and closes."""
    path = tmp_path / "library.sqlite"
    window = Library.open(path)
    try:
        worker = Library.open(path)
        reports = worker.import_paths(seeds)
        assert [r.status for r in reports] == ["imported"] * 5
        assert main_file_papers(path) == 0  # committed to the log, not yet copied
        worker.close()
        assert main_file_papers(path) == SEED_PAPERS  # the worker's close copied it
        assert window.stats()["papers"] == SEED_PAPERS
    finally:
        window.close()
    assert not Path(f"{path}-wal").exists()


def test_an_import_inside_a_larger_write_keeps_that_write_s_settings(lib, seeds):
    before = pragmas(lib)
    with lib.transaction():
        reports = lib.import_paths(seeds[:1])
        assert pragmas(lib) == before
    assert [r.status for r in reports] == ["imported"]
    assert lib.stats()["digests"] == 1

"""Crash safety: an import killed with SIGKILL at any moment leaves the library whole.

A large generated digest is imported by ``paperdesk import`` in a process of
its own, which is killed at several points of its run (the points are fractions
of an uninterrupted run measured first, plus the moment its write-ahead log is
growing, i.e. in the middle of the write). Each time the library must open,
pass ``PRAGMA integrity_check``, hold all of the digest or none of it, and keep
every earlier paper, note, tag and rating exactly as they were.
"""

from __future__ import annotations

import shutil
import signal
import sqlite3
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from paperdesk.core.db import schema
from paperdesk.core.library import Library
from tests.command_line import cli_command, cli_env
from tests.reliability.digests import write_digest
from tests.reliability.helpers import cli, curate, integrity, kill_when, user_data

ENTRIES = 20_000

pytestmark = pytest.mark.slow


def largest_wal(proc: subprocess.Popen, library: Path) -> int:
    """Watch a running import; the largest its write-ahead log grew."""
    largest = 0
    while proc.poll() is None:
        largest = max(largest, wal_size(library))
        time.sleep(0.002)
    return largest


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    """A curated library (closed, all in its main file), a big digest of new papers,
    and how large the write-ahead log grows while it is imported in one piece."""
    folder = tmp_path_factory.mktemp("crash")
    library = folder / "base.sqlite"
    with Library.open(library) as lib:
        lib.import_paths(sorted((Path(__file__).parents[2] / "seeds").glob("*.txt")))
        curate(lib)
    big = write_digest(folder / "big.txt", range(ENTRIES), day=9)
    reference = folder / "reference.sqlite"
    shutil.copy(library, reference)
    proc = subprocess.Popen(cli_command("--library", reference, "import", big), env=cli_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wal = largest_wal(proc, reference)
    assert proc.returncode == 0 and wal > 4 * 2**20, wal
    return library, big, wal, reference


def counts(path: Path) -> dict[str, int]:
    conn = sqlite3.connect(path)
    one = lambda sql: conn.execute(sql).fetchone()[0]  # noqa: E731
    try:
        return {
            "papers": one("SELECT count(*) FROM papers"),
            "fts": one("SELECT count(*) FROM papers_fts"),
            "digests": one("SELECT count(*) FROM digests"),
            "sightings": one("SELECT count(*) FROM sightings"),
            "triggers": one("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'"),
            "unstated": one("SELECT count(*) FROM papers p WHERE seen_count != "
                            "(SELECT count(DISTINCT digest_id) FROM sightings s "
                            "WHERE s.paper_id = p.id) AND deleted_at IS NULL"),
        }
    finally:
        conn.close()


def wal_size(library: Path) -> int:
    try:
        return Path(f"{library}-wal").stat().st_size
    except FileNotFoundError:
        return 0


# Where to kill: a time after the start (still reading and parsing); the moment
# the write-ahead log reaches a share of the size it reaches in a whole run (in
# the middle of the write, at its end, around the commit); once the command has
# reported the import (committed; closing the library); and once the main file
# grows (the checkpoint that follows the commit, copying the log into it).
POINTS = ["0.3s", 0.05, 0.5, 0.95, 0.999, "reported", "checkpointing"]


def _kill_point(point: str | float, proc: subprocess.Popen, library: Path,
                full_wal: int) -> Callable[[], bool]:
    """When to kill the import at ``point`` (see POINTS)."""
    if point == "reported":
        def reported() -> bool:
            assert proc.stderr is not None
            line = proc.stderr.readline().decode()
            assert line.startswith("imported"), line
            return True
        return reported
    if point == "checkpointing":
        size = library.stat().st_size
        return lambda: library.stat().st_size != size
    if isinstance(point, str):
        deadline = time.monotonic() + float(point[:-1])
        return lambda: time.monotonic() >= deadline
    return lambda: wal_size(library) >= point * full_wal


@pytest.mark.parametrize("point", POINTS)
def test_import_killed_midway_keeps_all_or_nothing(setup, tmp_path, point):
    base, big, full_wal, _ = setup
    library = tmp_path / "library.sqlite"
    shutil.copy(base, library)
    before = user_data(library)
    before_counts = counts(library)
    assert before_counts["triggers"] == len(schema.TRIGGERS) + len(schema.MOMENTUM_TRIGGERS) \
        + len(schema.KEY_TRIGGERS)

    proc = subprocess.Popen(cli_command("--library", library, "import", big), env=cli_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    alive = kill_when(proc, _kill_point(point, proc, library, full_wal))
    assert alive, f"the import had finished before the kill at {point}"
    assert proc.returncode == -signal.SIGKILL

    assert integrity(library) == "ok"
    after = counts(library)
    grown = after["papers"] - before_counts["papers"]
    assert grown in (0, ENTRIES), f"{grown} of {ENTRIES} papers kept"
    whole = grown == ENTRIES
    print(f"killed at {point}: {'all' if whole else 'none'} of the digest kept")
    assert after == {**before_counts,
                     "papers": before_counts["papers"] + grown,
                     "fts": before_counts["fts"] + grown,
                     "digests": before_counts["digests"] + whole,
                     "sightings": before_counts["sightings"] + (ENTRIES if whole else 0)}
    now = user_data(library)
    n = len(before["papers"])
    assert now["papers"][:n] == before["papers"]
    for key in ("tags", "paper_tags", "notes", "saved"):
        assert now[key] == before[key], key

    # The library works on: it takes writes, and (once, as it is slow) the same
    # import run again ends complete.
    with Library.open(library) as lib:
        lib.curation.add_tags([1], "after the crash")
        assert lib.search("containment").ids  # earlier notes still searchable
    if point == 0.5:
        again = cli("--library", library, "import", big)
        assert again.returncode == 0, again.stderr
        assert ("already imported" in again.stderr) == whole
        assert counts(library)["papers"] == before_counts["papers"] + ENTRIES
    assert integrity(library) == "ok"


@pytest.mark.parametrize("share", [0.2, 0.6, 0.95])
def test_restore_killed_midway_leaves_the_old_library_or_the_backup(setup, tmp_path, share):
    """Restoring a large backup over a small library, killed while the pages go in."""
    base, _, _, big_library = setup
    library = tmp_path / "library.sqlite"
    shutil.copy(base, library)
    old, new = user_data(library), user_data(big_library)
    size = big_library.stat().st_size
    proc = subprocess.Popen(cli_command("--library", library, "restore", big_library,
                                        "--yes"), env=cli_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    alive = kill_when(proc, lambda: wal_size(library) >= share * size)
    assert alive, f"the restore had finished before the kill at {share}"
    assert integrity(library) == "ok"
    now = user_data(library)
    assert now in (old, new)
    print(f"restore killed at {share}: {'backup' if now == new else 'old library'} in place")


def test_backup_killed_midway_leaves_no_backup_and_the_library_as_it_was(setup, tmp_path):
    _, _, _, big_library = setup
    library = tmp_path / "library.sqlite"
    shutil.copy(big_library, library)
    before = user_data(library)
    dest = tmp_path / "copy.sqlite"
    proc = subprocess.Popen(cli_command("--library", library, "backup", dest), env=cli_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    alive = kill_when(proc, lambda: bool(list(tmp_path.glob(".copy.sqlite.*.partial"))))
    assert alive, "the backup had finished before the kill"
    assert not dest.exists()  # a half backup never carries the final name
    assert user_data(library) == before and integrity(library) == "ok"


@pytest.mark.parametrize("kind", ["backup", "export"])
def test_the_next_run_removes_what_a_killed_backup_or_export_left(setup, tmp_path, kind):
    _, _, _, big_library = setup
    library = tmp_path / "library.sqlite"
    shutil.copy(big_library, library)
    dest = tmp_path / ("copy.sqlite" if kind == "backup" else "refs.bib")
    args = ["backup", dest] if kind == "backup" else ["export", "-o", dest]
    temp = f".{dest.name}.*.{'partial' if kind == 'backup' else 'tmp'}*"
    proc = subprocess.Popen(cli_command("--library", library, *args), env=cli_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    alive = kill_when(proc, lambda: bool(list(tmp_path.glob(temp))))
    assert alive, f"the {kind} had finished before the kill"
    assert list(tmp_path.glob(temp)) and not dest.exists()
    again = cli("--library", library, *args)
    assert again.returncode == 0, again.stderr
    assert dest.exists() and not list(tmp_path.glob(temp))

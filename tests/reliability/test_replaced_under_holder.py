"""A library file replaced, moved or deleted under a program holding it open: whatever is
at the path afterwards never gets that program's -wal (it used to replay it: "database
disk image is malformed"), and every commit the program made is in the copy it rescues,
whether it closes or is killed. A -wal left by a program killed before it could look is
set aside by the next opener, and a library's own -wal is still replayed."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from paperdesk.core.db import backup
from paperdesk.core.library import Library
from tests.command_line import cli_env
from tests.reliability.helpers import cli, integrity

COMMITS = 20
HOLDER = f"""
import sys
from paperdesk.core.library import Library
lib = Library.open(sys.argv[1])
ids = lib.search("", sort="title").ids
for i in range({COMMITS}):
    lib.curation.add_tags([ids[i]], [f"holder-{{i}}"])
print("ready", flush=True)
sys.stdin.readline()
lib.close()
print("closed", flush=True)
"""


def holder_tags(path: Path) -> int:
    """How many of the holder's commits the file at ``path`` has (its tags, one a commit)."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT count(*) FROM paper_tags pt JOIN tags t ON t.id = "
                            "pt.tag_id WHERE t.name LIKE 'holder-%'").fetchone()[0]
    finally:
        conn.close()


def rescued(library: Path) -> list[Path]:
    return sorted((library.parent / "backups").glob("*.rescued-*.sqlite"))


def start_holder(library: Path) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(library)], env=cli_env(),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "ready", proc.stderr.read()
    return proc


@pytest.fixture
def week_old(curated, tmp_path, seeds) -> Path:
    """A backup of the library; then the library gets one more digest."""
    old = backup.backup_library(curated, tmp_path / "week-old.sqlite")
    imported = cli("--library", curated, "import", seeds[3])
    assert imported.returncode == 0, imported.stderr
    return old


def _replace(how: str, library: Path, old: Path, tmp_path: Path, seeds) -> Path | None:
    """Do ``how`` to the library file; where the original file went (None: gone)."""
    if how == "backup":  # rm library.sqlite; cp week-old.sqlite library.sqlite
        library.unlink()
        shutil.copyfile(old, library)
        return None
    if how == "another":
        other = tmp_path / "another.sqlite"
        with Library.open(other) as lib:
            lib.import_paths(seeds[4:5])
        os.replace(other, library)
        return None
    if how == "move":
        moved = tmp_path / "moved-away.sqlite"
        os.rename(library, moved)
        return moved
    library.unlink()
    return None


@pytest.mark.parametrize("end", ["close", "kill"])
# The issue's own case in the fast tier; the three other ways in the slow one.
@pytest.mark.parametrize("how", ["backup", *(pytest.param(h, marks=pytest.mark.slow)
                                             for h in ("another", "move", "delete"))])
def test_a_library_replaced_under_its_holder(curated, week_old, tmp_path, seeds, how, end):
    holder = start_holder(curated)
    try:
        moved = _replace(how, curated, week_old, tmp_path, seeds)
        if end == "kill":  # once it has looked (every half second) and said so: killed
            said: list[str] = []
            reader = threading.Thread(target=lambda: said.append(holder.stderr.readline()))
            reader.start()
            reader.join(timeout=30)
            holder.kill()  # SIGKILL
            holder.wait(timeout=60)
            reader.join()
            err = "".join(said) + holder.stderr.read()
        else:
            out, err = holder.communicate("\n", timeout=60)
            assert out.strip() == "closed", err
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()
    # Said in one line, naming the copy.
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "last saw it is saved in" in lines[0], err
    [copy] = rescued(curated)
    assert str(copy) in lines[0]
    assert integrity(copy) == "ok" and holder_tags(copy) == COMMITS  # every commit
    assert not Path(f"{curated}-wal").exists() and not Path(f"{curated}-shm").exists()
    if curated.exists():  # what is at the path now: intact, without the holder's log
        stats = cli("--library", curated, "stats")
        assert stats.returncode == 0 and "malformed" not in stats.stderr, stats.stderr
        assert integrity(curated) == "ok"
        assert holder_tags(curated) == 0
    else:
        stats = cli("--library", curated, "stats")
        assert stats.returncode == 1 and stats.stderr.count("\n") == 1, stats.stderr
    if moved is not None:
        assert integrity(moved) == "ok"
        assert cli("--library", moved, "stats").returncode == 0


def test_a_log_left_by_a_holder_killed_before_the_file_was_replaced_is_set_aside(
        curated, week_old):
    """Killed first, then its file replaced: the log it left under the name is not
    replayed into the new file (the inode number may even be the old one's)."""
    holder = start_holder(curated)
    holder.kill()  # SIGKILL
    holder.wait(timeout=60)
    assert os.path.getsize(f"{curated}-wal") > 0
    curated.unlink()
    shutil.copyfile(week_old, curated)
    stats = cli("--library", curated, "stats")
    assert stats.returncode == 0, stats.stderr
    assert stats.stderr.count("\n") == 1 and "set aside as" in stats.stderr, stats.stderr
    assert integrity(curated) == "ok" and holder_tags(curated) == 0
    [wal] = (curated.parent / "backups").glob("library.sqlite-wal.set-aside-*")
    assert wal.stat().st_size > 0


def test_a_library_s_own_log_left_by_a_killed_holder_is_replayed(curated):
    holder = start_holder(curated)
    holder.kill()  # SIGKILL
    holder.wait(timeout=60)
    assert os.path.getsize(f"{curated}-wal") > 0
    stats = cli("--library", curated, "stats")
    assert stats.returncode == 0 and "set aside" not in stats.stderr, stats.stderr
    assert holder_tags(curated) == COMMITS
    assert not list((curated.parent / "backups").glob("*set-aside*"))


def test_opened_again_in_the_same_program_the_replaced_library_is_rescued_first(
        curated, week_old):
    """The window opening the path again (before its look): what it held is rescued, and
    the file now there opens intact, without the window's log."""
    held = Library.open(curated)
    try:
        ids = held.search("", sort="title").ids
        for i in range(COMMITS):
            held.curation.add_tags([ids[i]], [f"holder-{i}"])
        curated.unlink()
        shutil.copyfile(week_old, curated)
        with Library.open(curated) as again:
            assert again.db.execute("SELECT count(*) FROM tags WHERE name LIKE 'holder-%'"
                                    ).fetchone()[0] == 0
        [copy] = rescued(curated)
        assert holder_tags(copy) == COMMITS
    finally:
        held.close()
    assert integrity(curated) == "ok" and holder_tags(curated) == 0

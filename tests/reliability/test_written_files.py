"""Every file PaperDesk writes: never over the open library or its -wal/-shm (nor
through a link to them), whole or not at all, with the mode the rules give: a file
replaced keeps its mode, a new one follows the umask, a backup is never more
readable than its library; temporary files of a killed run are cleaned by the next."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

import pytest

from paperdesk.core.db import backup, files, known
from paperdesk.core.library import Library
from paperdesk.core.model.errors import LibraryError, PaperDeskError
from tests.reliability.helpers import cli, integrity


@pytest.fixture
def umask():
    def set_umask(value: int) -> None:
        os.umask(value)
    old = os.umask(0o022)
    yield set_umask
    os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def one_line_refusal(result, *words: str) -> None:
    assert result.returncode == 1, result.stdout
    assert result.stderr.count("\n") == 1, result.stderr
    for word in words:
        assert word in result.stderr


# -- never over the library --------------------------------------------------------------

def targets(library: Path) -> dict[str, Path]:
    link = library.parent / "link.bib"
    link.symlink_to(library)
    wal_link = library.parent / "wal-link.sqlite"
    wal_link.symlink_to(f"{library}-wal")
    return {"library": library, "symlink": link, "wal": Path(f"{library}-wal"),
            "shm": Path(f"{library}-shm"), "wal-symlink": wal_link}


@pytest.mark.parametrize("target", ["library", "symlink", "wal", "shm", "wal-symlink"])
def test_export_and_backup_onto_the_library_are_refused(curated, target):
    dest = targets(curated)[target]
    assert cli("--library", curated, "stats").returncode == 0  # statistics settle first
    before = curated.read_bytes()
    for command in (["export", "-o", dest], ["backup", dest, "--overwrite"]):
        result = cli("--library", curated, *command)
        one_line_refusal(result, str(dest))
        assert curated.read_bytes() == before, command
    assert integrity(curated) == "ok"
    assert not Path(f"{curated}-wal").exists()  # the commands closed cleanly


def test_in_process_writes_onto_the_open_library_are_refused(curated, tmp_path):
    with Library.open(curated) as lib:
        lib.curation.set_rating([1], 5)
        wal = Path(f"{curated}-wal")
        for dest in (curated, wal, Path(f"{curated}-shm")):
            with pytest.raises(PaperDeskError, match="nothing was written"):
                lib.bibtex.export_to(dest)
            with pytest.raises(LibraryError):
                lib.backup(dest)
        lib.curation.set_rating([2], 5)
    with Library.open(curated, create=False) as lib:
        assert [lib.paper(i)["rating"] for i in (1, 2)] == [5, 5]


def test_export_never_replaces_another_database(curated, tmp_path):
    copy = backup.backup_library(curated, tmp_path / "a-backup.sqlite")
    before = copy.read_bytes()
    result = cli("--library", curated, "export", "-o", copy)
    one_line_refusal(result, "is a database")
    assert copy.read_bytes() == before


def test_a_file_being_written_is_refused_to_a_second_writer(tmp_path):
    dest = tmp_path / "out.bib"
    with files.atomic_write(dest) as temp:
        temp.write_text("first")
        for other in (dest, temp):
            with pytest.raises(LibraryError, match="being written"), files.atomic_write(other):
                pass
    assert dest.read_text() == "first"
    assert [p.name for p in tmp_path.iterdir()] == ["out.bib"]


# -- modes ---------------------------------------------------------------------------------

@pytest.mark.parametrize("mask", [0o022, 0o077, 0o002])
def test_new_files_follow_the_umask(curated, tmp_path, umask, mask):
    umask(mask)
    known.record_path().unlink()  # made afresh under this umask
    fresh = tmp_path / f"new-{mask:o}.sqlite"
    with Library.open(fresh) as lib:
        lib.curation.save_search("x", "y")
        assert mode(fresh) & mask == 0
        assert mode(Path(f"{fresh}-wal")) == mode(fresh) == mode(Path(f"{fresh}-shm"))
        out = tmp_path / f"new-{mask:o}.bib"
        lib.bibtex.export_to(out)
        assert mode(out) == 0o666 & ~mask
    assert mode(known.record_path()) == 0o666 & ~mask
    curated.chmod(0o666 & ~mask)
    assert mode(backup.backup_library(curated)) == 0o666 & ~mask
    restored = tmp_path / f"restored-{mask:o}.sqlite"
    backup.restore(curated, restored)
    assert mode(restored) == 0o666 & ~mask


def test_an_export_keeps_the_mode_of_the_file_it_replaces(curated, tmp_path, umask):
    umask(0o077)
    out = tmp_path / "refs.bib"
    out.write_text("@misc{old}")
    out.chmod(0o644)
    result = cli("--library", curated, "export", "-o", out)
    assert result.returncode == 0, result.stderr
    assert mode(out) == 0o644 and out.read_text() != "@misc{old}"


def test_backups_are_never_more_readable_than_the_library(curated, tmp_path, umask):
    curated.chmod(0o600)
    named = tmp_path / "named.sqlite"
    named.write_bytes(b"")
    named.chmod(0o644)  # replaced with --overwrite: still no more readable than the library
    assert mode(backup.backup_library(curated)) == 0o600
    assert cli("--library", curated, "backup", named, "--overwrite").returncode == 0
    assert mode(named) == 0o600
    report = backup.restore(named, curated)
    assert mode(report.previous) == 0o600
    assert mode(curated) == 0o600
    with Library.open(curated) as lib:  # deleted under the program: the rescued copy
        lib.curation.set_rating([1], 2)
        for name in (curated, Path(f"{curated}-wal"), Path(f"{curated}-shm")):
            name.unlink()
        with pytest.raises(LibraryError):
            lib.curation.set_rating([1], 3)
    [rescued] = (curated.parent / "backups").glob("*.rescued-*")
    assert mode(rescued) == 0o600


def test_a_damaged_library_kept_aside_is_no_more_readable(curated, tmp_path):
    good = backup.backup_library(curated, tmp_path / "good.sqlite")
    curated.chmod(0o600)
    with open(curated, "r+b") as f:
        f.seek(4096 * 3)
        f.write(b"\xff" * 4096 * 4)
    report = backup.restore(good, curated)
    assert ".damaged-" in report.previous.name
    assert mode(report.previous) == 0o600


# -- leftovers of killed runs --------------------------------------------------------------

def dead_pid() -> int:
    pid = 4_000_000
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return pid
        pid += 1


def test_leftovers_of_killed_runs_are_cleaned_by_the_next_run(curated, tmp_path):
    dead, alive = dead_pid(), os.getpid()
    out = tmp_path / "refs.bib"
    export_left = tmp_path / f".refs.bib.{dead}.xdeadbeef.tmp"
    export_live = tmp_path / f".refs.bib.{alive}.x12345678.tmp"  # another export, running
    export_old = tmp_path / ".refs.bib.k2j_x9a0.tmp"  # older PaperDesk, a day old
    export_recent = tmp_path / ".refs.bib.ab_cd123.tmp"  # older PaperDesk, maybe running
    folder = backup.backups_folder(curated)
    folder.mkdir()
    backup_left = [folder / f".library-20250101-000000.sqlite.{dead}.x0badf00d.partial",
                   folder / f".library-20250101-000000.sqlite.{dead}.x0badf00d.partial-journal",
                   folder / f".library.before-restore.sqlite.{dead}.partial"]  # older names
    unrelated = folder / "my-notes.partial"
    for path in (export_left, export_live, export_old, export_recent, *backup_left, unrelated):
        path.write_bytes(b"x" * 1000)
    os.utime(export_old, (time.time() - 86400, time.time() - 86400))
    assert cli("--library", curated, "export", "-o", out).returncode == 0
    assert not export_left.exists() and export_live.exists()
    assert not export_old.exists() and export_recent.exists()
    assert cli("--library", curated, "backup").returncode == 0
    assert not any(p.exists() for p in backup_left)
    assert unrelated.exists()


def test_kept_in_sync_files_follow_the_rules(curated, tmp_path, umask):
    umask(0o077)
    curated.chmod(0o600)
    fresh, kept = tmp_path / "fresh.bib", tmp_path / "kept.bib"
    kept.write_text("")
    kept.chmod(0o640)
    with Library.open(curated) as lib:
        for path in (fresh, kept):
            sync = lib.syncs.add(path)
            lib.syncs.write(sync, overwrite=True)
        with pytest.raises(PaperDeskError):
            lib.syncs.add(Path(f"{curated}-wal"))
    assert mode(fresh) == 0o600 and mode(kept) == 0o640
    assert "@" in fresh.read_text() and "@" in kept.read_text()

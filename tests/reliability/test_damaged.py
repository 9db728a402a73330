"""Opening what is not a healthy library: a clear one-line message, and not one byte changed.

tests/core/test_store.py checks the messages of Library.open; here every case
also goes through the command line (exit 1, one line, no traceback) and the
files are compared byte for byte, side files (-wal, -shm) included.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from paperdesk.core.library import Library
from paperdesk.core.model.errors import LibraryError
from tests.command_line import cli_command, cli_env, paperdesk
from tests.reliability.helpers import cli, curate

# Commands that read and commands that write.
READS = [["stats"], ["list", "scaling"], ["show", "1"], ["backup"]]
WRITES = [["import", "SEED"], ["delete", "1"]]


def files_in(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def healthy(tmp_path, seeds) -> Path:
    """A curated library, checkpointed so that the whole of it is in the main file."""
    folder = tmp_path / "lib"
    folder.mkdir()
    path = folder / "library.sqlite"
    with Library.open(path) as lib:
        lib.import_paths(seeds[:3])
        curate(lib)
    return path


def run_all(path: Path, seed: Path) -> list[subprocess.CompletedProcess]:
    results = []
    for command in READS + WRITES:
        args = [str(seed) if a == "SEED" else a for a in command]
        results.append(paperdesk("--library", path, *args))
    return results


def assert_refused(results, message: str) -> None:
    for result in results:
        assert result.returncode == 1, (result.args, result.stdout, result.stderr)
        lines = result.stderr.strip().splitlines()
        # "paperdesk: ..." when the library cannot be used; "error: ..." from import,
        # which reports each file on a line of its own
        assert len(lines) == 1 and lines[0].startswith(("paperdesk: ", "error: ")), result.stderr
        assert message in lines[0], lines[0]


def scribble_table(path: Path, table: str) -> None:
    """Overwrite the root page of ``table``: the file still opens, reading the table fails."""
    conn = sqlite3.connect(f"file:{path}?immutable=1", uri=True)  # leaves no -wal, -shm
    root, size = (conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?",
                               [table]).fetchone()[0],
                  conn.execute("PRAGMA page_size").fetchone()[0])
    conn.close()
    data = bytearray(path.read_bytes())
    data[size * (root - 1): size * root] = b"\xa5" * size
    path.write_bytes(bytes(data))


def _text(folder: Path) -> Path:
    (folder / "library.sqlite").write_text("my thesis notes\n")
    return folder / "library.sqlite"


def _binary(folder: Path) -> Path:
    (folder / "library.sqlite").write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 64)
    return folder / "library.sqlite"


def _foreign(folder: Path) -> Path:
    path = folder / "library.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE songs (title TEXT, artist TEXT)")
    conn.execute("INSERT INTO songs VALUES ('Blue in Green', 'Miles Davis')")
    conn.commit()
    conn.close()
    return path


def _future(folder: Path) -> Path:
    path = folder / "library.sqlite"
    Library.open(path).close()
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
                 "VALUES ('paperdesk', '9999_future', 'x')")
    conn.commit()
    conn.close()
    return path


@pytest.mark.parametrize("make, message", [
    (_text, "not an SQLite file"),
    (_binary, "not an SQLite file"),
    (_foreign, "another program's database"),
    (_future, "newer PaperDesk"),
], ids=["text", "binary", "foreign", "newer"])
def test_foreign_files_are_refused_by_every_command_untouched(tmp_path, seeds, make, message):
    folder = tmp_path / "lib"
    folder.mkdir()
    path = make(folder)
    before = files_in(folder)
    assert_refused(run_all(path, seeds[3]), message)
    assert files_in(folder) == before  # nothing written, no backups folder made


def test_missing_folder_is_refused_by_every_command_and_not_made(tmp_path, seeds):
    path = tmp_path / "no" / "such" / "library.sqlite"
    assert_refused(run_all(path, seeds[3]), "does not exist")
    assert not (tmp_path / "no").exists()


def test_a_folder_given_as_the_library(tmp_path, seeds):
    (tmp_path / "folder.sqlite").mkdir()
    assert_refused(run_all(tmp_path / "folder.sqlite", seeds[3]), "is a folder")
    assert list((tmp_path / "folder.sqlite").iterdir()) == []


@pytest.mark.parametrize("fraction", [0.5, 0.05])
def test_truncated_library_is_refused_untouched(healthy, seeds, fraction):
    data = healthy.read_bytes()
    healthy.write_bytes(data[: int(len(data) * fraction) // 4096 * 4096 + 100])
    before = files_in(healthy.parent)
    results = [paperdesk("--library", healthy, "stats"),
               paperdesk("--library", healthy, "list"),
               paperdesk("--library", healthy, "import", seeds[3])]
    assert_refused(results, "damaged")
    assert files_in(healthy.parent) == before


def test_damaged_pages_are_reported_and_not_made_worse(healthy, seeds):
    """A scribbled page in the middle of the file: reads that reach it, and writes,
    fail with one line; the file is not changed."""
    scribble_table(healthy, "papers")
    before = files_in(healthy.parent)
    results = [paperdesk("--library", healthy, "list", "--json"),
               paperdesk("--library", healthy, "import", seeds[3]),
               paperdesk("--library", healthy, "backup")]
    assert_refused(results, "damaged")
    assert files_in(healthy.parent) == before


def test_damaged_library_in_process_changes_nothing(healthy):
    scribble_table(healthy, "papers")
    before = files_in(healthy.parent)
    # Reads that reach the damage raise (some reads as sqlite3.DatabaseError, which the
    # CLI words like the rest); what matters here is that nothing is written.
    with pytest.raises((LibraryError, sqlite3.DatabaseError)), Library.open(healthy) as lib:
        lib.papers(lib.search("").ids, with_notes=True)
    assert files_in(healthy.parent) == before


def test_garbage_wal_beside_a_library_is_ignored_and_data_kept(healthy):
    """A stray -wal file that is not a WAL (a copy gone wrong) must not hurt the library."""
    with Library.open(healthy) as lib:
        expected = lib.stats()
    Path(f"{healthy}-wal").write_bytes(b"\x00garbage" * 1000)
    result = paperdesk("--library", healthy, "stats", "--json")
    assert result.returncode == 0, result.stderr
    assert f'"papers": {expected["papers"]}' in result.stdout


# -- read-only ---------------------------------------------------------------------
#
# "Read-only" here means what the operating system says: the file (and, in the
# second case, its folder) cannot be written by the user running PaperDesk. Root
# ignores permission bits, so when the tests run as root the command runs with
# the capabilities that let root ignore them dropped (setpriv).


def _unprivileged(args: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return args
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: cannot make a file read-only")
    return ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner", *args]


def _run_read_only(*args) -> subprocess.CompletedProcess:
    result = subprocess.run(_unprivileged(cli_command(*args)), capture_output=True, text=True,
                            env=cli_env(), timeout=120)
    assert "Traceback" not in result.stderr, result.stderr
    return result


@pytest.fixture
def read_only_check(tmp_path):
    probe = tmp_path / "probe"
    probe.write_text("x")
    probe.chmod(0o444)
    check = subprocess.run(_unprivileged(["sh", "-c", f"echo y >> {probe}"]),
                           capture_output=True)
    if check.returncode == 0:
        pytest.skip("this system lets the test user write a read-only file")


def test_read_only_file_in_a_writable_folder_can_be_read_not_written(healthy, seeds,
                                                                    read_only_check):
    with Library.open(healthy) as lib:
        papers = lib.stats()["papers"]
    healthy.chmod(0o444)
    main = healthy.read_bytes()
    try:
        stats = _run_read_only("--library", healthy, "stats", "--json")
        assert stats.returncode == 0, stats.stderr
        assert f'"papers": {papers}' in stats.stdout
        for command in (["import", seeds[3]], ["delete", "1"]):
            result = _run_read_only("--library", healthy, *command)
            assert result.returncode == 1
            assert "read-only" in result.stderr and "nothing was changed" in result.stderr
        assert healthy.read_bytes() == main
    finally:
        healthy.chmod(0o644)
    with Library.open(healthy) as lib:
        assert lib.stats()["papers"] == papers and lib.stats()["trash"] == 0


def test_read_only_folder_gives_a_clear_message_and_changes_nothing(healthy, seeds,
                                                                    read_only_check):
    folder = healthy.parent
    healthy.chmod(0o444)
    before = files_in(folder)
    folder.chmod(0o555)
    try:
        results = [_run_read_only("--library", healthy, "stats"),
                   _run_read_only("--library", healthy, "import", seeds[3])]
    finally:
        folder.chmod(0o755)
        healthy.chmod(0o644)
    assert_refused(results, "read-only")
    assert files_in(folder) == before


def test_damaged_file_not_yet_in_wal_mode_is_refused_before_any_write(healthy):
    """A copy or an old backup is in rollback-journal mode; opening it as a library
    would switch it to WAL, which rewrites its header: a damaged one is refused first."""
    conn = sqlite3.connect(healthy)
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.close()
    scribble_table(healthy, "papers")
    before = files_in(healthy.parent)
    with pytest.raises(LibraryError, match="damaged"):
        Library.open(healthy)
    assert_refused([cli("--library", healthy, "stats")], "damaged")
    assert files_in(healthy.parent) == before

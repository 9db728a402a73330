"""No file PaperDesk writes replaces a database, and a sync's destination is a regular
file: export -o, sync add (with --overwrite), sync now and backup, run while another
process holds the library open with committed tags."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from paperdesk.core.db import backup
from paperdesk.core.library import Library
from tests.command_line import cli_env, paperdesk
from tests.reliability.helpers import cli, curate, integrity
from tests.work import counting_opens

HOLDER = """
import sys, time
from paperdesk.core.library import Library
lib = Library.open(sys.argv[1], create=False)
ids = lib.search("", sort="title").ids[:20]
for n, pid in enumerate(ids):
    lib.curation.add_tags([pid], [f"held-{n}"])
print("ready", flush=True)
sys.stdin.readline()
tags = lib.db.execute("SELECT count(*) FROM tags WHERE name LIKE 'held-%'").fetchone()[0]
print("tags", tags, lib.db.execute("PRAGMA quick_check").fetchone()[0], flush=True)
"""


@pytest.fixture
def held(tmp_path, seeds):
    """LIB, held open by another process that committed 20 tags (its -wal and -shm
    exist), and a second library the commands may run on instead."""
    folder = tmp_path / "lib"
    folder.mkdir()
    path = folder / "library.sqlite"
    for where in (path, tmp_path / "other.sqlite"):
        with Library.open(where) as lib:
            lib.import_paths(seeds[:2])
            curate(lib)
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=cli_env())
    assert proc.stdout.readline().strip() == "ready"
    assert Path(f"{path}-wal").stat().st_size > 0
    yield path
    proc.stdin.write("\n")
    proc.stdin.flush()
    said = proc.stdout.readline().split()
    proc.wait(timeout=30)
    assert said == ["tags", "20", "ok"], said  # the other program's data is intact
    assert integrity(path) == "ok"
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)  # read afresh, after it ended
    try:
        assert conn.execute("SELECT count(*) FROM tags WHERE name LIKE 'held-%'"
                            ).fetchone()[0] == 20
    finally:
        conn.close()


def targets(library: Path, tmp_path: Path) -> dict[str, Path]:
    folder = library.parent
    copy = backup.backup_library(library, tmp_path / "a-backup.sqlite")
    unrelated = tmp_path / "firefox-places.sqlite"
    conn = sqlite3.connect(unrelated)
    conn.execute("CREATE TABLE moz_places (url TEXT)")
    conn.commit()
    conn.close()
    found = {"library": library, "wal": Path(f"{library}-wal"), "shm": Path(f"{library}-shm"),
             "backup": copy, "unrelated-sqlite": unrelated,
             "journal-name": tmp_path / "notes.txt-journal"}
    for name, target in list(found.items()):
        link = folder / f"link-to-{name}.bib"
        link.symlink_to(target)
        found[f"link-{name}"] = link
    return found


COMMANDS = {"export": ["export", "-o"], "export-csl": ["export", "--format", "csl-json", "-o"],
            "sync-add": ["sync", "add", "--overwrite"], "backup": ["backup", "--overwrite"]}


@pytest.mark.parametrize("runs_on", ["the same library", "another library"])
def test_no_writer_replaces_a_database(held, tmp_path, runs_on):
    library = held if runs_on == "the same library" else tmp_path / "other.sqlite"
    found = targets(held, tmp_path)
    # The held library's own files are checked by the holder (this process never
    # opens them: reading one here is harmless, but the holder's word is the proof).
    others = [p for name, p in found.items() if name in ("backup", "unrelated-sqlite")]
    refused = 0
    for name, target in found.items():
        for command, words in COMMANDS.items():
            before = {p: p.read_bytes() for p in others}
            held_files = {p: os.stat(p).st_ino for p in (held, Path(f"{held}-wal"),
                                                         Path(f"{held}-shm"))}
            args = [*words[:2], target, *words[2:]] if command == "sync-add" else \
                [*words, target]
            result = paperdesk("--library", library, *args)
            assert result.returncode == 1, (name, command, result.stderr)
            assert result.stderr.count("\n") == 1, (name, command, result.stderr)
            assert {p: p.read_bytes() for p in others} == before, (name, command)
            # Not replaced: the same files (a rename over one gives a new inode).
            assert {p: os.stat(p).st_ino for p in held_files} == held_files, (name, command)
            assert not (tmp_path / "notes.txt-journal").exists()
            refused += 1
    assert refused == len(found) * len(COMMANDS)
    listed = json.loads(cli("--library", library, "sync", "list", "--json").stdout)
    assert listed == []  # no refused sync was recorded


def test_a_known_library_gone_missing_is_never_written_over(tmp_path, seeds):
    gone = tmp_path / "gone.sqlite"
    Library.open(gone).close()  # now in the list of libraries
    gone.unlink()
    other = tmp_path / "other.sqlite"
    Library.open(other).close()
    for args in (["export", "-o", gone], ["sync", "add", gone]):
        result = cli("--library", other, *args)
        assert result.returncode == 1 and "a PaperDesk library" in result.stderr, result.stderr
        assert not gone.exists()


def _fifo(folder: Path) -> Path:
    path = folder / "fifo.bib"
    os.mkfifo(path)
    return path


def _socket(folder: Path) -> Path:
    path = folder / "sock.bib"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    _socket.keep = server  # type: ignore[attr-defined]
    return path


def _zero(folder: Path) -> Path:
    path = folder / "zero.bib"
    path.symlink_to("/dev/zero")
    return path


def _folder(folder: Path) -> Path:
    path = folder / "folder.bib"
    path.mkdir()
    return path


@pytest.mark.parametrize("make", [_fifo, _socket, _zero, _folder])
def test_destinations_that_are_not_regular_files_are_refused_at_once(tmp_path, seeds, make):
    library = tmp_path / "library.sqlite"
    with Library.open(library) as lib:
        lib.import_paths(seeds[:1])
    target = make(tmp_path)
    for args in (["sync", "add", target], ["sync", "add", target, "--overwrite"],
                 ["export", "-o", target], ["backup", target, "--overwrite"]):
        result, opens = counting_opens(target, "--library", library, *args)
        assert opens == 0, args  # refused from what the path is, never opened to see
        assert result.returncode == 1 and result.stderr.count("\n") == 1, result.stderr
    assert json.loads(cli("--library", library, "sync", "list", "--json").stdout) == []


@pytest.mark.parametrize("make", [_fifo, _socket, _zero])
def test_a_synced_file_replaced_by_a_fifo_or_device_fails_the_sync_without_hanging(
        tmp_path, seeds, make):
    library = tmp_path / "library.sqlite"
    with Library.open(library) as lib:
        lib.import_paths(seeds[:1])
    synced = tmp_path / "refs.bib"
    assert cli("--library", library, "sync", "add", synced).returncode == 0
    synced.unlink()
    os.rename(make(tmp_path), synced)
    for args in (["tag", "1", "+x"], ["sync", "now"]):
        result, opens = counting_opens(synced, "--library", library, *args)
        assert opens == 0, args  # a FIFO opened would wait for a writer; /dev/zero, endless
        assert "not a regular file" in result.stderr, result.stderr
    listed = json.loads(cli("--library", library, "sync", "list", "--json").stdout)
    assert listed[0]["state"] == "failed" and "not a regular file" in listed[0]["message"]
    said = cli("--library", library, "stats")  # any command says it until resolved
    assert said.returncode == 0 and "refs.bib: sync failed: " in said.stderr

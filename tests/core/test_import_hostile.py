"""Import under hostile input: devices, pipes, sockets and huge files are refused before
anything is read; many entries under one title import in linear time; Cancel answers
promptly and keeps nothing."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paperdesk.core.duplicates import matcher
from paperdesk.core.duplicates.matcher import MAX_SIMILAR, TitleIndex
from paperdesk.core.importing import importer
from paperdesk.core.library import Library
from paperdesk.core.model.text import abstracts_match
from tests.command_line import paperdesk
from tests.core.test_import import content
from tests.reliability.digests import HEADER, abstract, digest_text, title
from tests.work import Checks

TIMEOUT = 60  # seconds; every subprocess here would hang or run for minutes without the fix


def run_cli(*args, timeout: float = TIMEOUT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "paperdesk", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout)


def file_bytes(library: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in library.parent.iterdir()
            if p.name.startswith(library.name)}


@pytest.fixture
def settled_path(tmp_path, seeds) -> Path:
    """A library of one seed digest whose file no read changes any more."""
    path = tmp_path / "hostile.sqlite"
    paperdesk("--library", path, "import", seeds[0], check_rc=0)
    # The first command after a write may refresh the query planner's statistics
    # (PRAGMA optimize at close); settled here, so that what follows compares bytes.
    paperdesk("--library", path, "stats", check_rc=0)
    return path


def _refused(library: Path, target: Path | str, words: str) -> None:
    before = file_bytes(library)
    result = run_cli("--library", library, "import", target)  # a hang: TimeoutExpired
    assert result.returncode == 1, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], result.stderr
    assert "Traceback" not in result.stderr
    assert file_bytes(library) == before


# -- what is not a file --------------------------------------------------------------------

@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_a_device_is_refused_before_reading(settled_path, tmp_path):
    _refused(settled_path, "/dev/zero", "/dev/zero: is a device, not a file; nothing was read")
    link = tmp_path / "zero.txt"
    link.symlink_to("/dev/zero")
    _refused(settled_path, link, "is a device, not a file")


def test_a_named_pipe_is_refused_without_waiting_for_a_writer(settled_path, tmp_path):
    fifo = tmp_path / "digest.txt"
    os.mkfifo(fifo)
    _refused(settled_path, fifo, "digest.txt: is a named pipe (FIFO), not a file")


def test_a_pipe_with_a_writer_is_refused_too(settled_path, tmp_path):
    """A writer that never stops (like /dev/zero through a pipe) must not be read."""
    fifo = tmp_path / "endless.txt"
    os.mkfifo(fifo)
    writer = subprocess.Popen([sys.executable, "-c",
                               f"f = open({str(fifo)!r}, 'wb')\nwhile True: f.write(b'x' * 65536)"],
                              stderr=subprocess.DEVNULL)
    try:
        _refused(settled_path, fifo, "is a named pipe (FIFO)")
    finally:
        writer.kill()
        writer.wait(timeout=10)


def test_a_socket_is_refused(settled_path, tmp_path):
    path = tmp_path / "s.txt"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(str(path))
        _refused(settled_path, path, "s.txt: is a socket, not a file")


def test_a_folder_holding_a_pipe_imports_its_digests(settled_path, tmp_path):
    folder = tmp_path / "inbox"
    folder.mkdir()
    os.mkfifo(folder / "pipe.txt")
    (folder / "digest.txt").write_text(digest_text(range(3)), encoding="utf-8")
    result = run_cli("--library", settled_path, "import", folder, "--json")
    assert result.returncode == 0, result.stderr
    assert '"status": "imported"' in result.stdout and "pipe.txt" not in result.stdout


def test_a_file_larger_than_the_limit_is_refused_unread(settled_path, tmp_path):
    huge = tmp_path / "huge.txt"
    with open(huge, "wb") as f:  # sparse: no disk used, and reading it would take long
        f.truncate(importer.MAX_FILE_BYTES + 1)
    _refused(settled_path, huge, f"huge.txt: too large to import (256 MiB; at most "
                            f"{importer.MAX_FILE_BYTES // 2**20} MiB)")


def test_a_file_that_grows_past_the_limit_while_read_is_refused(lib, tmp_path, monkeypatch):
    """The size told before reading is not trusted: reading stops at the limit."""
    monkeypatch.setattr(importer, "MAX_FILE_BYTES", 1000)
    monkeypatch.setattr(importer, "READ_CHUNK", 100)
    proc = Path("/proc/self/maps")  # a regular file whose size reads as 0
    if not proc.exists() or proc.stat().st_size != 0:
        pytest.skip("needs a /proc file of unknown size")
    [report] = lib.import_paths([proc])
    assert report.status == "error"
    assert report.error == "maps: too large to import (more than 0 MiB)"
    assert lib.stats()["digests"] == 0


# -- many entries under one title ------------------------------------------------------------

def same_title_digest(n: int, name: str = "A Survey of Large Language Models") -> str:
    entries = "".join(f"{name}\n\n{abstract(i)}\n\n  • 3 authors\n·\nMar 3, 2024\n\n"
                      for i in range(n))
    return HEADER + "Dec 30\n\n" + entries


@pytest.fixture
def comparisons(monkeypatch) -> list[int]:
    """One item for each comparison of two entries' keys the matcher makes."""
    calls: list[int] = []
    real = matcher.key_similarity

    def counted(a, b, cutoff=0.0):
        calls.append(1)
        return real(a, b, cutoff)

    monkeypatch.setattr(matcher, "key_similarity", counted)
    return calls


def test_entries_sharing_a_title_cost_a_bounded_number_of_comparisons(lib, tmp_path,
                                                                      comparisons):
    calls = comparisons
    counts = {}
    for n in (100, 400):
        calls.clear()
        path = tmp_path / f"same-{n}.txt"
        path.write_text(same_title_digest(n), encoding="utf-8")
        [report] = lib.import_paths([path])
        assert report.status == "imported" and report.new_papers == n - (n == 400) * 100
        counts[n] = len(calls)
    # Linear: never more than MAX_SIMILAR comparisons an entry (all pairs would be n²/2).
    assert counts[100] <= MAX_SIMILAR * 100
    assert counts[400] <= MAX_SIMILAR * 400 < 400 * 399 // 2
    assert counts[400] >= 10 * MAX_SIMILAR  # the matcher did compare abstracts


def test_a_big_same_title_digest_costs_linear_comparisons(lib, tmp_path, comparisons):
    """2,000 entries under one title: about 80 s of comparisons when every entry was
    compared with every earlier one (two million pairs); counted, not timed, now."""
    calls = comparisons
    path = tmp_path / "same.txt"
    path.write_text(same_title_digest(2000), encoding="utf-8")
    [report] = lib.import_paths([path])
    assert report.status == "imported" and report.new_papers == 2000
    assert 10 * MAX_SIMILAR <= len(calls) <= MAX_SIMILAR * 2000 < 2000 * 1999 // 2


_abstracts = st.sampled_from([abstract(i) for i in range(6)] + ["", "  ", "...", "We study."])


@st.composite
def _variant(draw):
    """An abstract, possibly truncated, retyped or with a typo."""
    text = draw(_abstracts)
    how = draw(st.sampled_from(["same", "cut", "typo", "upper", "punct"]))
    if how == "cut" and len(text) > 250:
        return text[:draw(st.integers(200, len(text)))]
    if how == "typo" and len(text) > 20:
        k = draw(st.integers(0, len(text) - 2))
        return text[:k] + text[k + 1] + text[k] + text[k + 2:]
    if how == "upper":
        return text.upper()
    if how == "punct":
        return text.replace(" ", " , ")
    return text


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(["a", "b"]), _variant()), min_size=1,
                max_size=MAX_SIMILAR))
def test_the_index_finds_what_comparing_with_every_paper_found(entries):
    """Up to MAX_SIMILAR papers a title, the index gives what the old scan gave: the
    first paper of the title whose abstract matches."""
    index, seen = TitleIndex(), {}
    for pid, (key, text) in enumerate(entries, start=1):
        expected = next((p for p, other in seen.get(key, []) if abstracts_match(text, other)),
                        None)
        assert index.find(key, text) == expected
        if expected is None:
            index.add(key, pid, text)
            seen.setdefault(key, []).append((pid, text))


# -- cancel --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def big_digest(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("big") / "big.txt"
    path.write_text(digest_text(range(20_000)), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def looks(big_digest, _seed_template, tmp_path_factory) -> int:
    """How often a whole import of the big digest into the seed library looks at its
    cancel flag: the points at which the cancel tests press it."""
    path = tmp_path_factory.mktemp("full") / "library.sqlite"
    shutil.copyfile(_seed_template, path)
    checks = Checks()
    with Library.open(path) as full:
        [report] = full.import_paths([big_digest], cancel=checks)
    assert report.status == "imported", report.error
    return checks.looks


def test_an_import_looks_at_its_cancel_flag_for_every_entry_and_every_sql_step(looks):
    assert looks >= 20_000  # the entries; the SQL's looks come on top


@pytest.mark.parametrize("part", [0.0, 0.01, 0.05, 0.2, 0.5, 0.8, 0.99])
def test_cancel_answers_promptly_and_keeps_nothing(seed_lib, big_digest, looks, part):
    """Pressed at a given look, from the first to the last; the job stops at the next
    look, reporting no phase after the press (only that it is done)."""
    before = content(seed_lib.path)
    checks = Checks(at=max(1, int(looks * part)))
    phases: list[tuple[int, str]] = []
    [report] = seed_lib.import_paths(
        [big_digest], progress=lambda f, m: phases.append((checks.looks, m)), cancel=checks)
    assert report.status == "cancelled", report.error
    assert checks.set_at is not None
    assert checks.seen <= 3, (checks.seen, phases[-2:])
    assert [m for n, m in phases if n > checks.set_at] == ["Done"], phases[-2:]
    assert content(seed_lib.path) == before
    assert seed_lib.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_a_cancel_during_the_sql_stops_the_statement(seed_lib, big_digest):
    """Set while the rows are written (the longest single statements): the statement
    running stops at the next look of SQLite's progress handler."""
    before = content(seed_lib.path)
    checks = Checks()
    writing: list[int] = []

    def progress(fraction: float, message: str) -> None:
        if message.startswith("Writing") and not writing:
            writing.append(checks.looks)
            checks.at = checks.looks + 3  # three looks on: inside the statements

    [report] = seed_lib.import_paths([big_digest], progress=progress, cancel=checks)
    assert report.status == "cancelled"
    assert writing and checks.set_at == writing[0] + 2
    assert checks.seen <= 2, checks.seen  # the handler's look, and the one that says why
    assert content(seed_lib.path) == before
    assert seed_lib.search("").ids and title(0) not in {
        p["title"] for p in seed_lib.papers(seed_lib.search("").ids)}

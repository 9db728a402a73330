"""Two programs at once, as real processes: both succeed, or one is told the library
is busy after a short wait; nothing is lost or corrupted either way."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from paperdesk.core.db import store
from paperdesk.core.library import Library
from tests.command_line import ROOT, cli_command, cli_env
from tests.conftest import SEED_PAPERS
from tests.reliability.digests import write_digest
from tests.reliability.helpers import cli, integrity, user_data

BUSY = "the library is busy"

HOLDER = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
conn.execute("INSERT INTO notes (paper_id, text, created, updated) "
             "VALUES (1, 'written by the holder', 'x', 'x')")
print("holding", flush=True)
if sys.argv[2] == "until-released":
    sys.stdin.read()  # until the test closes our input
else:
    time.sleep(float(sys.argv[2]))
conn.execute("COMMIT")
print("committed", flush=True)
"""


def hold_write_lock(library: Path, seconds: float | None = None) -> subprocess.Popen:
    """Another program in the middle of a write transaction for ``seconds``, or (None)
    until ``release`` is called."""
    held = "until-released" if seconds is None else str(seconds)
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(library), held],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "holding"
    return proc


def release(holder: subprocess.Popen) -> bool:
    """Let the holder commit; whether it was still holding the lock until then."""
    assert holder.stdin is not None and holder.stdout is not None
    holding = holder.poll() is None
    holder.stdin.close()
    committed = holder.stdout.read().strip() == "committed"
    holder.wait(timeout=60)
    return holding and committed


def start(*args) -> subprocess.Popen:
    return subprocess.Popen(cli_command(*args), env=cli_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def finish(proc: subprocess.Popen) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=120)
    assert "Traceback" not in err, err
    return proc.returncode, out, err


def distinct_counts(path: Path) -> tuple[int, list[int]]:
    conn = sqlite3.connect(path)
    try:
        papers = conn.execute("SELECT count(*) FROM papers").fetchone()[0]
        bad = [r[0] for r in conn.execute(
            "SELECT id FROM papers p WHERE seen_count != (SELECT count(DISTINCT digest_id) "
            "FROM sightings s WHERE s.paper_id = p.id)")]
        return papers, bad
    finally:
        conn.close()


def test_two_imports_at_once_both_land_or_one_is_told_busy(curated, tmp_path):
    """Two overlapping digests imported by two processes started together."""
    before = user_data(curated)
    base_papers = len(before["papers"])
    a = write_digest(tmp_path / "a.txt", range(0, 3000), day=1)
    b = write_digest(tmp_path / "b.txt", range(1500, 4500), day=2)
    procs = [start("--library", curated, "import", a), start("--library", curated, "import", b)]
    results = [finish(p) for p in procs]
    landed = [r for r in results if r[0] == 0]
    for rc, _, err in results:
        assert rc == 0 or (rc == 1 and BUSY in err and len(err.strip().splitlines()) == 1), err
    assert landed, results
    assert integrity(curated) == "ok"
    papers, bad = distinct_counts(curated)
    expected = {2: 4500, 1: 3000}[len(landed)]
    assert papers == base_papers + expected and bad == []
    after = user_data(curated)
    assert after["papers"][:base_papers] == before["papers"]
    assert (after["notes"], after["paper_tags"]) == (before["notes"], before["paper_tags"])
    assert len(after["digests"]) == len(before["digests"]) + len(landed)


def test_a_write_waits_for_a_short_transaction_and_then_succeeds(curated, seeds, tmp_path):
    extra = write_digest(tmp_path / "extra.txt", range(200), day=3)
    holder = hold_write_lock(curated, 1.5)
    started = time.monotonic()
    rc, _, err = finish(start("--library", curated, "import", extra))
    waited = time.monotonic() - started
    holder.wait(timeout=30)
    assert rc == 0, err
    assert waited >= 1.0  # it really waited for the lock
    with Library.open(curated) as lib:
        assert "written by the holder" in [n["text"] for n in lib.curation.notes(1)]
    assert integrity(curated) == "ok"


@pytest.mark.slow  # waits out the busy timeout (5 s) on purpose
def test_a_write_while_another_program_holds_the_lock_too_long_says_busy(curated, tmp_path):
    extra = write_digest(tmp_path / "extra.txt", range(200), day=3)
    before = user_data(curated)
    holder = hold_write_lock(curated)  # for as long as the two commands run
    try:
        started = time.monotonic()
        procs = [start("--library", curated, "import", extra),
                 start("--library", curated, "delete", "2")]
        results = [finish(p) for p in procs]
        waited = time.monotonic() - started
    finally:
        assert release(holder)
    for rc, _, err in results:
        assert rc == 1 and BUSY in err, err
        assert len(err.strip().splitlines()) == 1
    assert waited >= store.BUSY_TIMEOUT_S  # a short wait first, then the message
    after = user_data(curated)
    # Only the holder's own change arrived; the refused writes left no trace.
    assert after["papers"] == before["papers"] and after["digests"] == before["digests"]
    assert len(after["notes"]) == len(before["notes"]) + 1
    assert integrity(curated) == "ok"


def test_reading_is_never_blocked_by_a_writer(curated):
    """The writer keeps its lock until the read has finished: a read that waited for
    it would wait the busy timeout and then fail."""
    holder = hold_write_lock(curated)
    try:
        rc, out, err = finish(start("--library", curated, "stats", "--json"))
    finally:
        assert release(holder)  # it held the lock all through the read
    assert rc == 0, err
    assert '"papers"' in out


EDITOR = """
import sys, threading, time
from paperdesk.core.model.errors import LibraryBusy
from paperdesk.core.library import Library
lib = Library.open(sys.argv[1])
ids = lib.search("").ids
done = busy = 0
stop = threading.Event()
threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
end = None
# At least this many seconds of edits, and on until our input closes.
while end is None or time.monotonic() < end or not stop.is_set():
    try:
        lib.curation.add_note(ids[done % len(ids)], f"edit {done}")
        done += 1
    except LibraryBusy:
        busy += 1
    if end is None and done:
        end = time.monotonic() + float(sys.argv[2])
        print("editing", flush=True)
    time.sleep(0.01)
lib.close()
print(done, busy)
"""


@pytest.mark.slow  # imports 10,000 papers beside an editor: 6 s
def test_edits_in_one_program_while_another_imports(curated, tmp_path):
    """Like the desktop app (many small edits) beside a CLI import: every edit that
    reported success is in the library, and the import landed whole."""
    big = write_digest(tmp_path / "big.txt", range(10_000), day=5)
    before = user_data(curated)
    editor = subprocess.Popen([sys.executable, "-c", EDITOR, str(curated), "4"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                              env=cli_env())
    assert editor.stdout is not None and editor.stdout.readline().strip() == "editing"
    rc, _, err = finish(start("--library", curated, "import", big))
    out, _ = editor.communicate("", timeout=120)  # it edits on until here
    done, _busy = map(int, out.split())
    assert rc == 0, err
    assert editor.returncode == 0 and done > 10
    after = user_data(curated)
    edits = [n for n in after["notes"] if n[2].startswith("edit ")]
    assert len(edits) == done
    assert len(after["papers"]) == len(before["papers"]) + 10_000
    assert integrity(curated) == "ok" and distinct_counts(curated)[1] == []


@pytest.mark.parametrize("round_", range(3))
def test_several_programs_opening_an_old_library_at_once_upgrade_it_once(tmp_path, round_):
    """Each needs the upgrade; one does it (after one backup), the others wait and
    find it done. Before the upgrade ran under one lock, a second program could
    fail with "index ... already exists"."""
    path = tmp_path / "old.sqlite"
    shutil.copy(ROOT / "tests" / "data" / "library-0001.sqlite", path)
    procs = [start("--library", path, "stats", "--json") for _ in range(4)]
    results = [finish(p) for p in procs]
    for rc, out, err in results:
        assert rc == 0, err
        assert f'"papers": {SEED_PAPERS}' in out
    assert len(list((tmp_path / "backups").iterdir())) == 1
    assert integrity(path) == "ok"


@pytest.mark.parametrize("round_", range(3))
def test_several_programs_creating_a_library_at_once(tmp_path, round_):
    """One creates it; the others wait for it (SQLite can answer "locked" at once,
    without its busy wait, while another program switches a new library to WAL)."""
    path = tmp_path / "new.sqlite"
    results = [finish(p) for p in [start("--library", path, "--create", "stats")
                                   for _ in range(6)]]
    assert all(rc == 0 for rc, _, _ in results), results
    assert integrity(path) == "ok"
    assert not (tmp_path / "backups").exists()
    result = cli("--library", path, "stats", "--json")
    assert '"papers": 0' in result.stdout

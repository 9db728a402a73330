"""Soak: one synced .bib, written by CLI commands (tag, import, rate) and a window-like
process (``sync_window.py``: several connections and the window's sync writer) at
once, while a person edits the file at random moments and now and then overwrites
it (``sync now --overwrite``), as the window's question would.

At the end the file is byte for byte a fresh export of the same papers; every
person's edit is in the file or in a ``.conflict-`` file beside it; and ``sync list``,
asked all along while no one could write the file (the sync's own lock and the
person's), said "up to date" only when the file held the bytes PaperDesk last wrote
and none of the person's edits.

PAPERDESK_SYNC_SOAK_SECONDS sets the length (default 40).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import filelock
import pytest

from paperdesk.core.library import Library
from tests.command_line import cli_command, cli_env
from tests.reliability.helpers import cli, curate

pytestmark = pytest.mark.slow  # a soak: 40 seconds

SECONDS = float(os.environ.get("PAPERDESK_SYNC_SOAK_SECONDS", "40"))
WINDOW = Path(__file__).with_name("sync_window.py")
MARK = re.compile(rb"% person edit (\d+)\n")


class Tally:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.cli = self.window = self.edits = self.resolved = self.lists = 0
        self.up_to_date = 0
        self.problems: list[str] = []

    def add(self, name: str, n: int = 1) -> None:
        with self.lock:
            setattr(self, name, getattr(self, name) + n)


def run(library: Path, *args) -> subprocess.CompletedProcess:
    return subprocess.run(cli_command("--library", library, *args), capture_output=True,
                          text=True, env=cli_env(), timeout=120)


def cli_worker(library: Path, kind: int, until: float, tally: Tally, folder: Path) -> None:
    rng = random.Random(kind)
    n = 0
    while time.monotonic() < until:
        n += 1
        pid = rng.randrange(1, 60)
        if kind == 0:
            result = run(library, "tag", pid, f"+c{kind}-{n}")
        elif kind == 1:
            time.sleep(rng.uniform(1.0, 4.0))  # (an import rewrites every entry)
            bib = folder / f"imp-{n}.bib"
            bib.write_text("".join(
                f"@article{{imp{n}k{i},\n  title = {{Imported {n} number {i}}},\n"
                f"  author = {{Ada Lovelace}},\n  year = {{2020}},\n}}\n\n" for i in range(3)),
                encoding="utf-8")
            result = run(library, "import", bib)
        else:
            result = run(library, "rate", pid, str(n % 6))
        if "Traceback" in result.stderr or result.returncode not in (0, 1) \
                or "sync failed" in result.stderr:
            tally.problems.append(f"cli {kind}: {result.returncode} {result.stderr[-300:]}")
        tally.add("cli")


def person(synced: Path, until: float, tally: Tally, edits: list[int], mine: threading.Lock,
           library: Path) -> None:
    """Edits the file at random moments (atomically or in place), and now and then
    tells PaperDesk to overwrite it (their version is then kept beside it)."""
    rng = random.Random(7)
    while time.monotonic() < until:
        time.sleep(rng.uniform(0.05, 1.2))
        n = len(edits) + 1
        with mine:
            text = synced.read_bytes()
            new = b"%% person edit %d\n" % n + text
            if n % 2:
                temp = synced.with_name(f"person-{n}.tmp")
                temp.write_bytes(new)
                os.replace(temp, synced)
            else:
                with open(synced, "wb") as handle:  # in place, as some editors save
                    handle.write(new)
            edits.append(n)
        tally.add("edits")
        if rng.random() < 0.5:
            time.sleep(rng.uniform(0.0, 0.8))
            result = run(library, "sync", "now", "--overwrite")
            if "Traceback" in result.stderr:
                tally.problems.append(result.stderr)
            tally.add("resolved")


def watcher(library: Path, synced: Path, until: float, tally: Tally,
            mine: threading.Lock) -> None:
    """``sync list`` while neither PaperDesk nor the person can write the file."""
    lock = filelock.FileLock(str(synced.with_name(f".{synced.name}.lock")))
    while time.monotonic() < until:
        with mine, lock:
            listed = json.loads(run(library, "sync", "list", "--json").stdout)[0]
            data = synced.read_bytes() if synced.exists() else b""
        tally.add("lists")
        if listed["state"] == "up to date":
            tally.add("up_to_date")
            written = listed.get("written_sha256", hashlib.sha256(data).hexdigest())
            if hashlib.sha256(data).hexdigest() != written or MARK.search(data):
                tally.problems.append(f"'up to date' while the file was not: {listed}")
        time.sleep(0.2)


def test_a_sync_written_by_everyone_at_once_never_loses_an_edit_nor_lies(tmp_path, seeds):
    library = tmp_path / "library.sqlite"
    with Library.open(library) as lib:
        lib.import_paths(seeds)
        curate(lib)
    synced = tmp_path / "refs.bib"
    assert cli("--library", library, "sync", "add", synced).returncode == 0
    start = time.monotonic()
    tally, edits, mine = Tally(), [], threading.Lock()
    window = subprocess.Popen([sys.executable, str(WINDOW), str(library)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, env=cli_env())
    said: list[str] = []
    reader = threading.Thread(target=lambda: said.extend(window.stdout), daemon=True)
    reader.start()
    until = start + SECONDS
    folder = tmp_path / "imports"
    folder.mkdir()
    threads = [threading.Thread(target=cli_worker, args=(library, k, until, tally, folder))
               for k in range(3)]
    threads.append(threading.Thread(target=person, args=(synced, until - 8, tally, edits,
                                                         mine, library)))
    threads.append(threading.Thread(target=watcher, args=(library, synced, until, tally, mine)))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=SECONDS + 300)
    window.stdin.write("\n")
    window.stdin.flush()
    window.wait(timeout=120)
    reader.join(timeout=10)
    assert said[-1].strip() == "done", said[-5:]
    assert not tally.problems, tally.problems[:5]

    # The person's last word came 8 s before the end: the sync ran on since. Stopped
    # by their last edit, the person overwrites it once more, as they would.
    listed = json.loads(cli("--library", library, "sync", "list", "--json").stdout)[0]
    last_overwrite = listed["state"] != "up to date"
    if last_overwrite:
        assert listed["state"] in ("conflict", "changed"), listed
        assert cli("--library", library, "sync", "now", "--overwrite").returncode == 0
    fresh = subprocess.run(cli_command("--library", library, "export"), capture_output=True,
                           env=cli_env(), timeout=120, check=True).stdout
    final = synced.read_bytes()
    conflicts = sorted(tmp_path.glob("refs.conflict-*.bib"))
    kept = {int(m) for p in [synced, *conflicts] for m in MARK.findall(p.read_bytes())}
    lost = sorted(set(edits) - kept)
    assert not lost, f"edits lost: {lost} of {len(edits)}"
    assert final == fresh, "the synced file is not a fresh export of the same papers"
    listed = json.loads(cli("--library", library, "sync", "list", "--json").stdout)[0]
    assert listed["state"] == "up to date"
    assert listed["written_sha256"] == hashlib.sha256(final).hexdigest()

    window_writes = sum(1 for line in said if line.startswith("ok "))
    window_rounds = [line.split() for line in said if line.startswith("sync ")]
    print(f"\nsync soak {time.monotonic() - start:.0f}s: cli commands {tally.cli}, window "
          f"writes {window_writes}, window sync rounds {len(window_rounds)} "
          f"(written {sum(int(r[2]) for r in window_rounds)}), person edits {len(edits)}, "
          f"overwrites asked {tally.resolved}, conflict files {len(conflicts)}, edits kept "
          f"{len(kept & set(edits))}/{len(edits)}, sync list asked {tally.lists} "
          f"('up to date' {tally.up_to_date}, each true), final entries {listed['entries']}, "
          f"overwrite needed at the end: {last_overwrite}; window rounds: "
          f"{sorted(set(r[1] for r in window_rounds))}")
    assert not [r for r in window_rounds if r[1] == "failed"], window_rounds
    assert len(edits) >= 5 and tally.cli >= 20 and window_writes >= 20

"""Soak: a window-like process and CLI commands on one library, killed at random.

``soak_window.py`` writes continuously from several connections while CLI
commands (``tag``, ``note``, ``rate``, ``list``, and ``import`` of .bib files large
enough for the bulk path) read and write the same library,
and both are SIGKILLed at random moments (the window is started again). At the
end every write whose call returned success is in the library, and SQLite's
integrity check and the FTS5 index check pass. Runs PAPERDESK_SOAK_SECONDS
(default 60) seconds; prints the counts.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from paperdesk.core.library import Library
from tests.command_line import cli_command, cli_env
from tests.reliability.helpers import curate, integrity

pytestmark = pytest.mark.slow

SECONDS = float(os.environ.get("PAPERDESK_SOAK_SECONDS", "60"))
WINDOW = Path(__file__).with_name("soak_window.py")
RATED = 3  # the paper only the CLI rates


@dataclass
class Tally:
    notes: set[str] = field(default_factory=set)     # tokens written as notes, reported ok
    tags: set[str] = field(default_factory=set)
    rates: list[tuple[int, bool]] = field(default_factory=list)  # value, reported ok
    bib_keys: set[str] = field(default_factory=set)  # keys of .bib files imported, ok
    bib_imports: int = 0
    writes: int = 0
    refused: int = 0
    kills: int = 0
    cli_runs: int = 0


class Window:
    """The window-like process, its output read as it comes."""

    def __init__(self, library: Path, run: int, tally: Tally, lock: threading.Lock) -> None:
        self.proc = subprocess.Popen([sys.executable, str(WINDOW), str(library), f"w{run}"],
                                     env=cli_env(), stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        self.tally, self.lock = tally, lock
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            words = line.split()
            if not line.endswith("\n"):
                break  # cut off by the kill: not reported
            with self.lock:
                if words[:1] == ["ok"] and len(words) == 3:
                    (self.tally.notes if words[1] == "note" else self.tally.tags).add(words[2])
                    self.tally.writes += 1
                elif words[:1] == ["err"]:
                    self.tally.refused += 1

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=60)
        self.thread.join(timeout=60)
        err = self.proc.stderr.read()
        assert "Traceback" not in err, err


def run_cli(library: Path, args: list, kill_after: float | None) -> tuple[bool, bool]:
    """(succeeded, killed)"""
    proc = subprocess.Popen(cli_command("--library", library, *args), env=cli_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if kill_after is not None:
        try:
            proc.wait(timeout=kill_after)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=60)
            return False, True
    _, err = proc.communicate(timeout=120)
    assert "Traceback" not in err, err
    return proc.returncode == 0, False


BIB_ENTRIES = 250  # over BULK_THRESHOLD: chunks, search rows as they go in, indexes


def bib_file(folder: Path, token: str) -> tuple[Path, set[str]]:
    """A .bib file of BIB_ENTRIES entries with keys and title words of its own."""
    keys = [f"{token}-k{i}" for i in range(BIB_ENTRIES)]
    path = folder / f"{token}.bib"
    path.write_text("".join(
        f"@article{{{key},\n  title = {{Soak {token.replace('-', ' ')} entry {i}}},\n"
        f"  author = {{Ada Lovelace and Alan Turing}},\n  journal = jab,\n"
        f"  year = {{{2000 + i % 25}}},\n}}\n\n" for i, key in enumerate(keys)),
        encoding="utf-8")
    return path, set(keys)


def test_soak_window_and_commands_killed_at_random(tmp_path, seeds):
    library = tmp_path / "library.sqlite"
    with Library.open(library) as lib:
        lib.import_paths(seeds[:2])
        curate(lib)
        ids = lib.search("", sort="title").ids[40:60]
    seed = int(os.environ.get("PAPERDESK_SOAK_SEED", "12"))
    tally, lock = Tally(), threading.Lock()
    end = time.monotonic() + SECONDS
    errors: list[BaseException] = []

    def commands(worker: int) -> None:
        """CLI commands one after another, some killed after a random delay."""
        rng = random.Random(seed + worker)
        n = 0
        try:
            while time.monotonic() < end:
                n += 1
                token = f"c{worker}-{n}"
                kill_after = rng.uniform(0.05, 1.0) if rng.random() < 0.25 else None
                what = rng.choice(["note", "tag", "list"] + ["rate"] * (worker == 0)
                                  + ["bib"] * (worker == 1))
                pid = rng.choice(ids)
                value = n % 5 + 1
                bib, keys = bib_file(tmp_path, token) if what == "bib" else (None, set())
                args = {"note": ["note", pid, token], "tag": ["tag", pid, f"+{token}"],
                        "rate": ["rate", RATED, value], "bib": ["import", bib],
                        "list": ["list", "to cite", "--limit", "5"]}[what]
                ok, killed = run_cli(library, args, kill_after)
                with lock:
                    tally.cli_runs += 1
                    tally.kills += killed
                    if what == "rate":
                        tally.rates.append((value, ok))
                    if what == "bib" and ok:
                        tally.bib_keys |= keys
                        tally.bib_imports += 1
                    if ok and what != "list":
                        tally.writes += 1
                        if what in ("note", "tag"):
                            (tally.notes if what == "note" else tally.tags).add(token)
        except BaseException as exc:  # reported by the test below
            errors.append(exc)

    workers = [threading.Thread(target=commands, args=(w,)) for w in range(2)]
    for w in workers:
        w.start()
    rng = random.Random(seed)
    run = 1
    window = Window(library, run, tally, lock)
    while time.monotonic() < end:
        time.sleep(min(rng.uniform(1, 5), max(end - time.monotonic(), 0)))
        window.kill()
        tally.kills += 1
        if time.monotonic() < end:
            run += 1
            window = Window(library, run, tally, lock)
    for w in workers:
        w.join(timeout=300)
    assert not errors, errors

    assert integrity(library) == "ok"
    conn = sqlite3.connect(library)
    try:
        conn.execute("INSERT INTO papers_fts(papers_fts) VALUES ('integrity-check')")
        notes = {r[0] for r in conn.execute("SELECT text FROM notes")}
        tags = {r[0] for r in conn.execute("SELECT name FROM tags")}
        rating = conn.execute("SELECT rating FROM papers WHERE id = ?", [RATED]).fetchone()[0]
        citekeys = {r[0] for r in conn.execute("SELECT citekey FROM papers")}
        # each imported entry is found by a word only its title holds
        unfound = [k for k in sorted(tally.bib_keys)[::97] if not conn.execute(
            "SELECT 1 FROM papers_fts WHERE papers_fts MATCH ?",
            ['title: "' + k.rsplit("-k", 1)[0].replace("-", " ") + " entry "
             + k.rsplit("-k", 1)[1] + '"']).fetchone()]
    finally:
        conn.close()
    lost = (sorted(tally.notes - notes) + sorted(tally.tags - tags)
            + sorted(tally.bib_keys - citekeys))
    # The paper only the CLI rates: the last value reported saved, or one tried after it
    # by a command that was killed (it may have committed before it died).
    last_ok = max((i for i, (_, ok) in enumerate(tally.rates) if ok), default=-1)
    possible = {v for v, _ in tally.rates[last_ok:]} if last_ok >= 0 else set()
    rate_lost = last_ok >= 0 and rating not in possible
    print(f"\nsoak {SECONDS:.0f}s: writes {tally.writes} (window runs {run}, cli runs "
          f"{tally.cli_runs}, .bib imports {tally.bib_imports} of {BIB_ENTRIES} entries), "
          f"kills {tally.kills}, refused {tally.refused}, lost {len(lost) + rate_lost}")
    assert not lost, lost[:20]
    assert not rate_lost, (rating, tally.rates[last_ok:])
    assert not unfound, unfound
    assert tally.bib_imports > 0
    assert tally.writes > 20 and tally.kills > 3

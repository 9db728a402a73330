"""A command killed after its commit and before it wrote the synced files: the change
reaches them all the same, and ``sync list`` never says "up to date" meanwhile.

Each trial holds the synced file's lock (as a program writing it would), so that a real
``paperdesk tag`` process commits its change and then waits, at the very point between
its commit and its write of the file. The process is killed there (SIGKILL or SIGTERM),
``sync list`` is asked while the change is still out of the file, the lock is let go,
and any next command is run (a read, an export, another tag, the list itself). At the
end of every trial the file holds every change committed so far, byte for byte a fresh
export; and every ``sync list`` that said "up to date" was asked over a file that was.

PAPERDESK_SYNC_KILL_TRIALS sets how many rounds of the five next commands the slow tier
runs per signal (default 3: 15 trials).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import filelock
import pytest

from tests.command_line import cli_command, cli_env
from tests.processes import hears_ctrl_c
from tests.reliability.helpers import cli

TRIALS = int(os.environ.get("PAPERDESK_SYNC_KILL_TRIALS", "3"))

pytestmark = pytest.mark.posix  # SIGKILL

# What runs after the killed command: each must finish the write it finds pending.
NEXT = [("stats",), ("list", "--limit", "1"), ("tag", "7", "+AFTER"), ("sync", "list"),
        ("export", "-o", "OTHER")]


def tagged(library: Path, tag: str) -> bool:
    """Whether ``tag`` is committed (read as another program would, changing nothing)."""
    conn = sqlite3.connect(f"file:{library}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT 1 FROM tags WHERE name = ?", [tag]).fetchone() is not None
    finally:
        conn.close()


def listed(library: Path) -> dict:
    result = cli("--library", library, "sync", "list", "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)[0]


def honest(sync: dict, synced: Path, tags: list[str]) -> bool:
    """A "sync list" answer is honest: "up to date" only over the very bytes last
    written, holding every tag committed."""
    if sync["state"] != "up to date":
        return True
    data = synced.read_bytes()
    return (hashlib.sha256(data).hexdigest() == sync["written_sha256"]
            and all(t.encode() in data for t in tags))


def fresh_export(library: Path) -> bytes:
    return subprocess.run(cli_command("--library", library, "export"), capture_output=True,
                          env=cli_env(), timeout=120, check=True).stdout


def test_a_change_whose_command_was_killed_before_the_sync_write_reaches_the_file(
        curated, tmp_path):
    """One trial of each signal, in the fast tier (the next command: another tag)."""
    for sig in (signal.SIGKILL, signal.SIGTERM):
        trials(curated, tmp_path / sig.name, sig, [NEXT[2]])


@pytest.mark.slow  # about 7 s a trial
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_killed_commands_trials(curated, tmp_path, sig):
    trials(curated, tmp_path, sig, NEXT * TRIALS)


def trials(library: Path, tmp_path: Path, sig: signal.Signals, after: list[tuple]) -> None:
    """One killed command a trial, each followed by the next command of ``after``."""
    tmp_path.mkdir(exist_ok=True)
    library = Path(shutil.copy(library, tmp_path / "library.sqlite"))
    synced = tmp_path / "refs.bib"
    assert cli("--library", library, "sync", "add", synced).returncode == 0
    lock = filelock.FileLock(str(synced.with_name(f".{synced.name}.lock")))
    tags: list[str] = []
    missing_after, dishonest, killed = [], [], 0
    for n, following in enumerate(after):
        tag = f"killtag{n}z"
        with lock:  # the file is being written by "another program": the tag waits
            proc = subprocess.Popen(cli_command("--library", library, "tag", str(n % 20 + 1),
                                                f"+{tag}"),
                                    env=cli_env(), stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE)
            deadline = time.monotonic() + 60
            while not tagged(library, tag) and proc.poll() is None:
                assert time.monotonic() < deadline, "the tag was never committed"
                time.sleep(0.005)
            assert proc.poll() is None, proc.communicate()
            tags.append(tag)
            asked = listed(library)  # committed, not written: the file lacks it
            if not honest(asked, synced, tags) or asked["state"] == "up to date":
                dishonest.append((tag, asked["state"]))
            proc.send_signal(sig)
            proc.wait(timeout=30)
            killed += proc.returncode == -sig
        words = [w.replace("OTHER", str(tmp_path / f"other-{n}.bib"))
                 .replace("AFTER", f"aftertag{n}z") for w in following]
        result = cli("--library", library, *words)
        assert result.returncode == 0, (words, result.stderr)
        if words[0] == "tag":
            tags.append(words[-1][1:])
        data = synced.read_bytes()
        missing_after.extend(t for t in tags if t.encode() not in data)
        asked = listed(library)
        if not honest(asked, synced, tags) or asked["state"] != "up to date":
            dishonest.append((tag, asked["state"], "after", words[0]))
    print(f"\n{sig.name}: {killed} of {len(after)} commands killed between their "
          f"commit and their sync write; committed changes missing from the file after the "
          f"next command: {len(set(missing_after))}; dishonest sync list answers: "
          f"{len(dishonest)}")
    assert killed == len(after)
    assert not missing_after, f"committed but not in the synced file: {sorted(set(missing_after))}"
    assert not dishonest, dishonest
    assert synced.read_bytes() == fresh_export(library)


def _sleeping(pid: int) -> bool:
    """Whether process ``pid`` sleeps on a timer (Linux: /proc/PID/wchan): a program
    waiting for a file's lock tries it again every few hundredths of a second."""
    try:
        return Path(f"/proc/{pid}/wchan").read_text() == "hrtimer_nanosleep"
    except OSError:
        return False


def test_sync_now_interrupted_while_it_waits_leaves_the_change_pending(curated, tmp_path):
    """``sync now`` waiting for another program's write of the file ends at SIGINT
    (exit 130, one line); the change it was to write is still pending, said so, and the
    next command writes it."""
    library = Path(shutil.copy(curated, tmp_path / "library.sqlite"))
    synced = tmp_path / "refs.bib"
    assert cli("--library", library, "sync", "add", synced).returncode == 0
    lock_path = synced.with_name(f".{synced.name}.lock")
    with filelock.FileLock(str(lock_path)):
        tagging = subprocess.Popen(cli_command("--library", library, "tag", "3",
                                               "+interrupted"), env=cli_env(),
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while not tagged(library, "interrupted"):
            assert tagging.poll() is None
            time.sleep(0.005)
        tagging.kill()
        tagging.wait(timeout=30)
        now = subprocess.Popen(cli_command("--library", library, "sync", "now"), env=cli_env(),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               **hears_ctrl_c())
        deadline = time.monotonic() + 60
        while not _sleeping(now.pid):  # waiting for the file's lock
            assert now.poll() is None and time.monotonic() < deadline, now.communicate()
            time.sleep(0.005)
        time.sleep(0.2)
        start = time.monotonic()
        now.send_signal(signal.SIGINT)
        _out, err = now.communicate(timeout=30)
        print(f"\nsync now waiting for the file's lock: SIGINT to exit "
              f"{time.monotonic() - start:.3f} s")
        assert now.returncode == 130 and "interrupted" in err and "Traceback" not in err, err
        assert listed(library)["state"] == "pending"
    assert b"interrupted" not in synced.read_bytes()
    assert cli("--library", library, "stats").returncode == 0
    assert b"interrupted" in synced.read_bytes()
    assert listed(library)["state"] == "up to date"
    assert synced.read_bytes() == fresh_export(library)

"""Ctrl-C during a Hub command: seconds from SIGINT to the process's end, exit 130.

    python bench/bench_interrupt.py [--runs 5]

``paperdesk fetch`` is interrupted while it waits out a 30 s ``Retry-After`` on the day's
list and while it reads a record trickling a byte a second; ``paperdesk enrich`` during a
429 storm. The stand-in Hub is ``tests/fake_hub.py`` on loopback. The floor is a bare
Python process that has imported what those commands import (huggingface_hub, httpx2,
PaperDesk's core) and sleeps when SIGINT comes: what ending such a process costs at
all (the interpreter's own teardown), on this machine at this load. Target: 1 s.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, header, median_of, note, report

sys.path.insert(0, str(ROOT))  # tests.fake_hub, the stand-in server

from tests.fake_hub import FakeHub, record

DAY = "2025-06-02"
BARE = ("import signal, sys, time, huggingface_hub.hf_api, httpx2, paperdesk.core.api\n"
        "print('ready', flush=True)\n"
        "try:\n    time.sleep(600)\nexcept KeyboardInterrupt:\n    sys.exit(130)\n")


def _env(url: str) -> dict[str, str]:
    env = {**os.environ, "HF_ENDPOINT": url, "PYTHONPATH": str(ROOT / "src")}
    env.pop("HF_HUB_OFFLINE", None)
    return env


def _interrupt(proc: subprocess.Popen, ready) -> float:
    """Wait for ``ready()``, then SIGINT; the seconds until the process ended."""
    deadline = time.monotonic() + 60
    while not ready():
        if proc.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"the process ended early: {proc.communicate()}")
        time.sleep(0.01)
    time.sleep(0.5)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=60)
    elapsed = time.monotonic() - sent
    if proc.returncode != 130:
        raise SystemExit(f"exit {proc.returncode}, not 130")
    return elapsed


def _command(stage: str, folder: Path) -> float:
    with FakeHub() as server:
        for n in range(3):
            server.add(record(f"2506.0000{n}", f"Fetched Paper {n}", "An abstract.", ["A B"],
                              "2025-06-01"), day=DAY)
        args = ["fetch", "--date", DAY]
        if stage == "fetch, list":
            prefix = "/api/daily_papers"
            server.fail(prefix, 429, times=10**6, headers={"Retry-After": "30"})
        elif stage == "fetch, record":
            prefix = "/api/papers/"
            server.fail(prefix, 200, times=99, body=b"{" + b" " * 600 + b"}", trickle=1.0)
        else:
            prefix, args = "/api/papers/search", ["enrich"]
            server.fail(prefix, 429, times=10**6, headers={"Retry-After": "30"})
            subprocess.run([sys.executable, "-m", "paperdesk", "--library",
                            str(folder / "lib.sqlite"), "--create", "stats"], check=True,
                           capture_output=True, env=_env(server.url))
            (folder / "a.bib").write_text("@misc{a, title = {Fetched Paper 1}, abstract = "
                                          "{An abstract.}}\n", encoding="utf-8")
            subprocess.run([sys.executable, "-m", "paperdesk", "--library",
                            str(folder / "lib.sqlite"), "import", str(folder / "a.bib")],
                           check=True, capture_output=True, env=_env(server.url))
        proc = subprocess.Popen([sys.executable, "-m", "paperdesk", "--library",
                                 str(folder / "lib.sqlite"), *args], env=_env(server.url),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        return _interrupt(proc, lambda: server.count(prefix) >= 1)


def _bare() -> float:
    proc = subprocess.Popen([sys.executable, "-c", BARE], env=_env(""), text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    line = proc.stdout.readline()
    return _interrupt(proc, lambda: line == "ready\n")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    floor = median_of(_bare, runs)
    header("Ctrl-C during a Hub command (SIGINT to exit 130)")
    for stage in ("fetch, list", "fetch, record", "enrich, 429"):
        def once(stage: str = stage) -> float:
            with tempfile.TemporaryDirectory() as folder:
                return _command(stage, Path(folder))

        report(f"{stage}: SIGINT to exit", median_of(once, runs), floor, 1.0)
    note(f"floor: a bare process with the same imports ends {floor:.3f} s after SIGINT; "
         f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()

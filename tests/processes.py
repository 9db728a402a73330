"""A program's processes, as Linux's /proc shows them: for the tests that kill a
PaperDesk program while its spawned processes (readers, exporters) work."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path


def descendants(pid: int) -> set[int]:
    found, todo = set(), [pid]
    while todo:
        parent = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                children = Path(f"/proc/{parent}/task/{task}/children").read_text().split()
            except OSError:
                continue
            found.update(map(int, children))
            todo.extend(map(int, children))
    return found


def running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has exited; only its parent's wait is missing


def spawned(proc: subprocess.Popen, count: int, seconds: float) -> set[int]:
    """The processes ``proc`` spawned (multiprocessing's, not its resource tracker),
    once there are ``count`` of them, or what there is after ``seconds``."""
    children: set[int] = set()
    deadline = time.monotonic() + seconds
    while proc.poll() is None and time.monotonic() < deadline and len(children) < count:
        children = {c for c in descendants(proc.pid)
                    if b"spawn_main" in _cmdline(c) and b"resource_tracker" not in _cmdline(c)}
        time.sleep(0.01)
    return children


def killed_leaving(proc: subprocess.Popen, seconds: float) -> list[int]:
    """Kill ``proc`` (SIGKILL); its processes still running ``seconds`` later."""
    everything = descendants(proc.pid)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + seconds
    while any(running(c) for c in everything) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [c for c in everything if running(c)]


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""

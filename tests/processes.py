"""A program's processes, as psutil sees them: for the tests that kill a PaperDesk
program while its spawned processes (readers, exporters) work."""

from __future__ import annotations

import signal
import subprocess
import time

import psutil


def hears_ctrl_c() -> dict:
    """Popen arguments for a child a test sends SIGINT: the default handler, even when
    the test itself was started with SIGINT ignored (as a shell's background job is),
    which a child would otherwise inherit."""
    if not hasattr(signal, "SIGINT") or not hasattr(signal, "pthread_sigmask"):
        return {}
    return {"preexec_fn": lambda: signal.signal(signal.SIGINT, signal.SIG_DFL)}


def descendants(pid: int) -> set[int]:
    try:
        return {p.pid for p in psutil.Process(pid).children(recursive=True)}
    except psutil.NoSuchProcess:
        return set()


def running(pid: int) -> bool:
    try:
        # a zombie has exited; only its parent's wait is missing
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def spawned(proc: subprocess.Popen, count: int, seconds: float) -> set[int]:
    """The processes ``proc`` spawned (multiprocessing's, not its resource tracker),
    once there are ``count`` of them, or what there is after ``seconds``."""
    children: set[int] = set()
    deadline = time.monotonic() + seconds
    while proc.poll() is None and time.monotonic() < deadline and len(children) < count:
        children = {c for c in descendants(proc.pid)
                    if "spawn_main" in _cmdline(c) and "resource_tracker" not in _cmdline(c)}
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


def _cmdline(pid: int) -> str:
    try:
        return " ".join(psutil.Process(pid).cmdline())
    except (psutil.NoSuchProcess, psutil.ZombieProcess, psutil.AccessDenied):
        return ""

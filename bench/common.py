"""Timing and memory helpers shared by the benchmarks.

Every figure is printed beside a floor measured in the same run (the same
work done the most direct way: raw sqlite3, a raw FTS5 query, a bare process),
as medians of a few runs, with their ratio and the target:

    figure                                  | seconds | floor   | ratio | target  | met

The harness the benchmarks share: ``command_line`` (the description and ``--runs``,
``--shape`` with ``shape=``), ``scratch`` (a folder under bench/out that goes
afterwards) and ``verdict`` (the last line and the exit status).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
if str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))

RUNS = 3
# The environment of measured processes: they write their bytecode as a user's would.
PROCESS_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def median_time(fn: Callable[[], Any], runs: int = RUNS,
                setup: Callable[[], Any] | None = None) -> float:
    """Median wall time of ``fn()`` over ``runs`` runs; ``setup()`` runs untimed before each.

    When ``setup`` returns something, ``fn`` is called with it.
    """
    times = []
    for _ in range(runs):
        arg = setup() if setup is not None else None
        start = time.perf_counter()
        fn(arg) if setup is not None else fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def median_of(run_once: Callable[[], float], runs: int = RUNS) -> float:
    """Median of the seconds ``run_once()`` reports (it times only the part that counts)."""
    return statistics.median(run_once() for _ in range(runs))


def process_peak(command: list[str]) -> tuple[float, float]:
    """Wall seconds and peak memory (MB) of one process; its output is thrown away."""
    seconds, _cpu, peak = process_usage(command)
    return seconds, peak


def process_usage(command: list[str]) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (user + system) and peak memory (MB) of one process
    and the processes it starts; its output is thrown away. On a shared machine the
    wall time follows the load; the CPU time much less so.

    CPU and the peak come from GNU time, which runs the command itself: a child forked
    from this (large) process would report this process's size as its own. GNU time
    counts the CPU of the children the command waited for, but its peak is the largest
    single process's. So the process tree is also watched while it runs, and the peak
    reported is the larger of GNU time's and the sum of each process's own peak
    (``VmHWM``): an upper bound of what the processes held at once."""
    return process_usage_together(command)[:3]


def process_usage_together(command: list[str]) -> tuple[float, float, float, float]:
    """``process_usage`` and, fourth, what the tree held at once (MB): the largest sum
    of its processes' resident memory at one moment, sampled every 20 ms, or the
    largest single process's peak if that is larger (a process's own peak between two
    samples is never missed; the sum's can be, and it counts shared pages, such as the
    interpreter's, once a process)."""
    # Its messages go to a file, not a pipe: a command that warns more than a pipe
    # holds (a real .bib file's warnings) would wait on it for ever.
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errors:
        start = time.perf_counter()
        proc = subprocess.Popen(["/usr/bin/time", "-f", "maxrss %M cpu %U %S", *command],
                                stdout=subprocess.DEVNULL, stderr=errors, env=PROCESS_ENV)
        peaks, together = _watch(proc)
        seconds = time.perf_counter() - start
        errors.seek(0)
        stderr = errors.read()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {stderr[-2000:]}")
    peak, user, system = stderr.rsplit("maxrss ", 1)[1].replace("cpu ", "").split()[:3]
    held = sum(peak for _line, peak in peaks.values())
    return (seconds, float(user) + float(system), max(int(peak), held) / 1024,
            max(int(peak), together) / 1024)


def _watch(proc: subprocess.Popen[bytes]) -> tuple[dict[int, tuple[bytes, int]], int]:
    """Each process of the tree's own peak while ``proc`` runs (see process_usage), and
    the largest sum of their resident memory in one sample (KiB)."""
    # pid -> (its command line, its peak): a child seen between its fork and its exec
    # still shows its parent's memory as its own (shared, not held twice), so a pid's
    # peak starts again when its command line changes.
    peaks: dict[int, tuple[bytes, int]] = {}
    together = 0
    while proc.poll() is None:
        now = 0
        for pid in _descendants(proc.pid):
            line, peak = _command_line(pid), _own_peak_kb(pid)
            if not line:  # gone, or a zombie: what it held is known already
                continue
            now += _own_peak_kb(pid, "VmRSS:")
            known = peaks.get(pid)
            if known is not None and known[0] == line:
                peak = max(peak, known[1])
            peaks[pid] = (line, peak)
        together = max(together, now)
        time.sleep(0.02)
    return peaks, together


def _descendants(pid: int) -> list[int]:
    """The processes below ``pid`` (Linux's /proc; none where it is missing)."""
    found: list[int] = []
    todo = [pid]
    while todo:
        parent = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{parent}/task/{task}/children") as f:
                    children = [int(c) for c in f.read().split()]
            except OSError:
                continue
            found.extend(children)
            todo.extend(children)
    return found


def _command_line(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read()
    except OSError:
        return b""


def _own_peak_kb(pid: int, field: str = "VmHWM:") -> int:
    """A process's own peak resident memory so far (``VmRSS:``: its resident memory
    now), in KiB (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def own_peak() -> float:
    """The peak memory (MB) of this process so far."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _fmt(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


HEAD = f"{'figure':<52} | {'median':>9} | {'floor':>9} | {'ratio':>6} | {'target':>11} | met"


def header(title: str = "") -> None:
    if title:
        print(f"\n{title}")
    print(HEAD)
    print("-" * len(HEAD))


def report(figure: str, seconds: float, floor: float | None, target: float | None, *,
           below: bool = False) -> bool:
    """Print one row; returns whether the target is met (``below``: strictly under it)."""
    ratio = f"{seconds / floor:.1f}x" if floor else "-"
    if target is None:
        met = "-"
        ok = True
    else:
        ok = seconds < target if below else seconds <= target
        met = "yes" if ok else "NO"
    limit = "-" if target is None else ("< " if below else "<= ") + _fmt(target)
    print(f"{figure:<52} | {_fmt(seconds):>9} | {_fmt(floor):>9} | {ratio:>6} | {limit:>11} | "
          f"{met}", flush=True)
    return ok


def note(text: str) -> None:
    print(f"  {text}", flush=True)


def command_line(doc: str | None, runs: int, runs_help: str | None = None, *,
                 shape: str | None = None) -> argparse.ArgumentParser:
    """A benchmark's options: the first line of its docstring ``doc`` as the description,
    ``--runs`` (``runs`` by default); ``shape``: ``--shape``, the shape of the data
    generate.py makes (``shape`` says what of), for ``options`` to set."""
    parser = argparse.ArgumentParser(description=(doc or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=runs, help=runs_help)
    if shape is not None:
        import generate

        parser.add_argument("--shape", choices=generate.SHAPES, default="real",
                            help=f"{shape} shape (generate.py)")
    return parser


def options(parser: argparse.ArgumentParser, argv: list[str] | None = None
            ) -> argparse.Namespace:
    """The options given; the shape of generated data set from ``--shape``."""
    args = parser.parse_args(argv)
    if getattr(args, "shape", None) is not None:
        import generate

        generate.set_shape(args.shape)
    return args


@contextlib.contextmanager
def scratch() -> Iterator[Path]:
    """A folder under bench/out for one run, removed afterwards."""
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=OUT) as name:
        yield Path(name)


def verdict(ok: bool) -> int:
    """The last line, and the exit status: 1 when a target was missed."""
    print("\nall targets met" if ok else "\nSOME TARGETS MISSED")
    return 0 if ok else 1

"""paperdesk enrich / fetch against a hostile local Hub: real processes, real signals,
the memory a huge answer costs measured. The time a Ctrl-C takes is printed, not
asserted (a busy machine makes any bound flaky): each wait here is bounded far below
what the process would take without the fix (a Retry-After of 59 s, a 600 s body) and
far above what it takes with it."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from paperdesk.core.library import Library
from tests.command_line import paperdesk
from tests.fake_hub import FakeHub, record
from tests.processes import hears_ctrl_c

DAY = "2025-06-02"


def _start(path, *args, url):
    env = {**os.environ, "HF_ENDPOINT": url}
    env.pop("HF_HUB_OFFLINE", None)
    return subprocess.Popen([sys.executable, "-m", "paperdesk", "--library", str(path), *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            **hears_ctrl_c())


def _when_asked(server: FakeHub, prefix: str, proc: subprocess.Popen) -> float:
    """The moment the server saw the first request under ``prefix``."""
    deadline = time.monotonic() + 60  # a bound on the wait for a process, not a measure
    while server.count(prefix) < 1:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.01)
    return time.monotonic()


def _interrupt(proc: subprocess.Popen, wait: float) -> tuple[float, str]:
    """SIGINT now; (seconds until the process ended, its stderr). Waiting more than
    ``wait`` seconds fails the test (TimeoutExpired)."""
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=wait)
    finally:
        proc.kill()
    return time.monotonic() - sent, err


def test_ctrl_c_ends_enrich_without_waiting_out_a_429_storm(small, server):
    # 59 s asked for (within the longest wait honoured, 60 s): a Ctrl-C that waited for
    # it would take more than the 30 s given below.
    server.fail("/api/papers/search", 429, times=10**6, headers={"Retry-After": "59"})
    before = Library.open(small).papers([1, 2])
    proc = _start(small, "enrich", url=server.url)
    _when_asked(server, "/api/papers/search", proc)
    time.sleep(0.5)  # inside the 59 s wait the Hub asked for
    elapsed, err = _interrupt(proc, wait=30)
    print(f"enrich, 429 storm: SIGINT to exit {elapsed:.3f} s")
    assert proc.returncode == 130 and "interrupted" in err and "Traceback" not in err
    with Library.open(small) as lib:
        assert lib.papers([1, 2]) == before


def test_ctrl_c_ends_enrich_during_slow_reads(small, server):
    # Every answer trickles a byte a second: the threads asking are all inside a read
    # (600 s each); a process that ended at its request deadline would not say 130.
    server.fail("/api/papers/search", 200, times=99, body=b"[" + b" " * 600 + b"]",
                trickle=1.0)
    proc = _start(small, "enrich", url=server.url)
    _when_asked(server, "/api/papers/search", proc)
    time.sleep(1.0)
    elapsed, err = _interrupt(proc, wait=30)
    print(f"enrich, slow reads: SIGINT to exit {elapsed:.3f} s")
    assert proc.returncode == 130 and "Traceback" not in err


def test_a_slow_loris_fetch_ends_at_its_deadline_with_one_line(tmp_path, server):
    server.fail("/api/daily_papers", 200, times=9, body=b"[" + b" " * 600 + b"]", trickle=1.0)
    proc = _start(tmp_path / "lib.sqlite", "fetch", "--date", DAY, "--timeout", "3",
                  url=server.url)
    asked = _when_asked(server, "/api/daily_papers", proc)
    _, err = proc.communicate(timeout=60)  # the body alone takes 600 s
    elapsed = time.monotonic() - asked
    print(f"slow-loris fetch: first request to exit {elapsed:.2f} s (deadline 3 s)")
    assert proc.returncode == 1
    assert err.splitlines() == [f"{DAY}: daily papers of {DAY}: the Hub did not answer "
                                "within 3 s"]


def _peak_rss_mb(proc: subprocess.Popen) -> tuple[float, int, str]:
    """Wait for the process; (its own peak RSS in MB, exit code, stderr)."""
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_maxrss / 1024, proc.returncode, err


def test_a_400_mb_answer_is_cut_at_the_cap_and_memory_stays_small(tmp_path, server):
    server.add(record("2506.00001", "A Normal Paper", "Its abstract.", ["A B"], "2025-06-01"),
               day=DAY)
    normal = _start(tmp_path / "a.sqlite", "fetch", "--date", DAY, url=server.url)
    baseline, code, err = _peak_rss_mb(normal)
    assert code == 0, err
    server.fail("/api/daily_papers", 200, times=9, stream=400 * 2**20)
    started = time.monotonic()
    huge = _start(tmp_path / "b.sqlite", "fetch", "--date", DAY, url=server.url)
    peak, code, err = _peak_rss_mb(huge)
    print(f"400 MB answer: peak RSS {peak:.0f} MB (a normal fetch: {baseline:.0f} MB), "
          f"{time.monotonic() - started:.2f} s")
    assert code == 1 and "Traceback" not in err
    assert err.splitlines() == [f"{DAY}: daily papers of {DAY}: the Hub's answer is larger "
                                "than 20 MB; not read"]
    assert peak < baseline + 60


def test_fetch_from_an_unreachable_hub_says_so_in_one_line(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    down = paperdesk("--library", tmp_path / "lib.sqlite", "fetch", "--date", DAY,
                     env={"HF_ENDPOINT": f"http://127.0.0.1:{port}"}, check_rc=1)
    (line,) = down.stderr.splitlines()
    assert line.startswith(f"{DAY}: could not reach the Hub at http://127.0.0.1:{port}: ")
    assert "0 papers" not in down.stderr


def test_a_hub_redirecting_to_another_host_is_refused_in_one_line(tmp_path, small, server):
    with FakeHub(host="127.0.0.2") as elsewhere:
        elsewhere.add(record("2001.08361", "Scaling Laws for Neural Language Models",
                             "We study empirical scaling laws for language model performance.",
                             ["Jared Kaplan"], "2020-01-23"), day=DAY)
        server.fail("/api/", 302, times=10**6, location=elsewhere.url)
        env = {"HF_ENDPOINT": server.url}
        before = Library.open(small).papers([1, 2])
        enrich = paperdesk("--library", small, "enrich", env=env, check_rc=1)
        fetch = paperdesk("--library", tmp_path / "day.sqlite", "fetch", "--date", DAY,
                          env=env, check_rc=1)
        assert elsewhere.requests == []
    refused = f"to {elsewhere.url}, another host; not followed, nothing taken from it"
    (line,) = enrich.stderr.splitlines()
    assert line.startswith("completed 0 of 2 papers; 2 without an answer (")
    assert line.endswith(refused)
    assert fetch.stderr.splitlines() == [f"{DAY}: the Hub at {server.url} redirected daily "
                                         f"papers of {DAY} {refused}"]
    with Library.open(small) as lib:
        assert lib.papers([1, 2]) == before
    with Library.open(tmp_path / "day.sqlite") as lib:
        assert lib.stats()["papers"] == 0


@pytest.mark.parametrize("stage", ["list", "records"])
def test_ctrl_c_ends_fetch_at_once_with_exit_130(tmp_path, server, stage):
    for n in range(3):
        server.add(record(f"2506.0000{n}", f"Fetched Paper {n}", "An abstract.", ["A B"],
                          "2025-06-01"), day=DAY)
    if stage == "list":  # waiting out the 59 s the Hub asked for
        prefix = "/api/daily_papers"
        server.fail(prefix, 429, times=10**6, headers={"Retry-After": "59"})
    else:  # inside a read of a record trickling a byte a second
        prefix = "/api/papers/"
        server.fail(prefix, 200, times=99, body=b"{" + b" " * 600 + b"}", trickle=1.0)
    proc = _start(tmp_path / "lib.sqlite", "fetch", "--date", DAY, url=server.url)
    _when_asked(server, prefix, proc)
    time.sleep(0.5)
    asked = len(server.requests)
    # The wait it was in had 58 s (list) or 10 minutes (records) to go: a Ctrl-C that
    # waited for it would take more than the 30 s given. The time a process takes to
    # end on a busy machine is measured by bench/bench_interrupt.py.
    elapsed, err = _interrupt(proc, 30)
    print(f"fetch, {stage}: SIGINT to exit {elapsed:.3f} s")
    assert len(server.requests) == asked  # nothing more asked once interrupted
    assert proc.returncode == 130 and "Traceback" not in err
    assert err.splitlines() == ["paperdesk: interrupted; the current change was rolled back"]
    with Library.open(tmp_path / "lib.sqlite") as lib:
        assert lib.stats()["papers"] == 0

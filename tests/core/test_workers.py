"""Chunks worked in worker processes (``core/model/workers.py``): every result comes
back once and in order, whichever process made it, when a worker cannot start its work,
cannot work a chunk, dies midway or is slow; and no process is left running."""

from __future__ import annotations

import multiprocessing
import os
import time

import pytest

from paperdesk.core.model import workers

NAME = "paperdesk-test-worker"
CHUNKS = list(range(40))


def squares(parent: int, fails: str = "", slow: float = 0.0):
    """What works a chunk: its square and the process that made it. In a worker (a
    process other than ``parent``), ``fails`` says how it fails: "setup" (it cannot start
    its work), "none" (it gives None from chunk 5 on), "die" (it ends at chunk 5)."""
    in_worker = os.getpid() != parent
    if in_worker and fails == "setup":
        raise RuntimeError("this worker cannot set up")

    def work(chunk: int):
        if in_worker:
            if chunk >= 5 and fails == "none":
                return None
            if chunk >= 5 and fails == "die":
                os._exit(3)
            time.sleep(slow)
        return chunk * chunk, os.getpid()

    return work


def _run(fails: str, helping: bool, slow: float = 0.0, processes: int = 1):
    with workers.Workers(processes, NAME) as pool:
        results = list(pool.run(squares, (os.getpid(), fails, slow), iter(CHUNKS),
                                helping=helping))
        assert pool.workers == []  # stopped once the last result was read
    assert [square for square, _ in results] == [c * c for c in CHUNKS]
    return [pid for _, pid in results]


@pytest.mark.parametrize("helping", [True, False])
@pytest.mark.parametrize("fails", ["", "setup", "none", "die"])
def test_every_result_comes_back_once_and_in_order(fails, helping):
    made_by = _run(fails, helping)
    here = made_by.count(os.getpid())
    assert not [p for p in multiprocessing.active_children() if p.name == NAME]
    if fails == "":
        # the workers make them all, or (helping) at least the first they were sent
        assert here == 0 if not helping else here <= len(CHUNKS) - workers.AHEAD
    elif fails == "setup":
        assert here == len(CHUNKS)
    else:  # the worker made some of the first five, and none after
        assert all(pid == os.getpid() for pid in made_by[5:])


def test_a_slow_worker_is_helped_and_the_order_kept():
    made_by = _run("", helping=True, slow=0.05)
    here = made_by.count(os.getpid())
    assert here > len(CHUNKS) // 2  # this process made what it would have waited through
    assert here < len(CHUNKS)  # and the worker made some


@pytest.mark.parametrize("helping", [True, False])
def test_two_workers_share_the_chunks(helping):
    made_by = _run("", helping, processes=2)
    assert len(set(made_by) - {os.getpid()}) == 2

"""Completing papers from a local stand-in for the Hugging Face Hub: time, requests, share.

    python bench/bench_enrich.py [--papers 1000] [--runs 3]

A generated library of N papers is completed against ``tests/fake_hub.py`` on
loopback, which knows 95% of them (every 20th is left out, so "not found" costs
its search too). The run uses PaperDesk's worker threads with the rate ceiling
lifted, so the figure is PaperDesk's own cost; the floor is the same number of
plain GET requests to the same server on as many threads (urllib, no parsing,
no database). It also prints the requests made and requests per paper, what the
default ceiling (``hub.DEFAULT_LIMITS``) makes of them, and the share of the
seed papers completed against the same server.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from common import ROOT, header, median_of, note, report
from generate import make_library

sys.path.insert(0, str(ROOT))  # tests.fake_hub, the stand-in server

from tests.fake_hub import FakeHub, populate_from

from paperdesk.core.hub import hub as hub_module
from paperdesk.core.hub.hub import Hub, Limits
from paperdesk.core.library import Library

WORKERS = 4


def _floor(server: FakeHub, paths: list[str]) -> float:
    def get(path: str) -> None:
        with urllib.request.urlopen(server.url + path) as r:
            r.read()

    start = time.perf_counter()
    with ThreadPoolExecutor(WORKERS) as pool:
        list(pool.map(get, paths))
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    import os

    with tempfile.TemporaryDirectory() as tmp, FakeHub() as server:
        os.environ["HF_ENDPOINT"] = server.url
        os.environ.pop("HF_HUB_OFFLINE", None)
        folder = Path(tmp)
        base = folder / "base.sqlite"
        lib = make_library(base, args.papers)
        populate_from(lib, server, skip_every=20)
        lib.close()
        results = []

        def run_once() -> float:
            path = folder / f"run{len(results)}.sqlite"
            shutil.copy(base, path)
            with Library.open(path) as copy:
                hub = Hub(Limits(rate=100_000, workers=WORKERS))
                server.requests.clear()
                start = time.perf_counter()
                changes = copy.enrich(hub=hub)
                seconds = time.perf_counter() - start
                results.append((changes.result, hub.requests, list(server.requests)))
            return seconds

        header(f"Completing {args.papers} papers from a local Hub ({WORKERS} threads)")
        seconds = median_of(run_once, args.runs)
        result, requests, paths = results[-1]
        floor = statistics_median([_floor(server, paths) for _ in range(args.runs)])
        report(f"enrich {args.papers} papers", seconds, floor, None)
        note(f"completed {len(result.completed)}, not found {len(result.not_found)}, "
             f"unsure {len(result.unsure)}, failed {len(result.failed)}")
        note(f"requests: {requests} ({requests / args.papers:.2f} per paper); "
             f"{requests / seconds:.0f} requests/s here")
        rate = hub_module.DEFAULT_LIMITS.rate
        note(f"at the default ceiling of {rate:g} requests/s: {requests / rate / 60:.1f} min "
             f"for {args.papers} papers, {requests * 10 / rate / 3600:.1f} h for 10x as many")

        seed = Library.open(folder / "seeds.sqlite")
        seed.import_paths(sorted((ROOT / "seeds").glob("*.txt")))
        with FakeHub() as seed_server:
            os.environ["HF_ENDPOINT"] = seed_server.url
            populate_from(seed, seed_server)
            done = seed.enrich(hub=Hub(Limits(rate=100_000, workers=WORKERS))).result
        total = seed.stats()["papers"]
        note(f"seed library: {len(done.completed)} of {total} papers completed "
             f"({100 * len(done.completed) / total:.0f}%), {len(done.unsure)} left alone "
             f"(unsure), {len(done.not_found)} not found; the server knows every seed paper")
        seed.close()


def statistics_median(values: list[float]) -> float:
    import statistics

    return statistics.median(values)


if __name__ == "__main__":
    main()

"""Adding one paper by its identifier: PaperDesk's time beyond the services' answers.

    python bench/bench_add.py [--papers 10000] [--runs 5]

A generated library of N papers; local stand-ins for arXiv's API and Crossref
(``tests/fake_services.py``) and the Hub (``tests/fake_hub.py``) on loopback. Each run
adds a new arXiv id (arXiv's answer, then the Hub's record) and a new DOI (Crossref's).
The figure is the whole ``Library.add`` less the time the stand-ins took to answer (what
a real service's latency would add, and nothing PaperDesk can make shorter); the floor
is the same GETs made with urllib, no parsing, no database. arXiv's three seconds
between requests are lifted for the run (they are a rule, not a cost). The last row is
``paperdesk add ID`` as a process of its own (start-up, opening the library, the add).
The target: at most 1 s beyond the services' answers (issue 39).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from common import PROCESS_ENV, ROOT, header, note, report
from generate import make_library

sys.path.insert(0, str(ROOT))  # tests.fake_services, tests.fake_hub

from tests.fake_hub import FakeHub, record
from tests.fake_services import ArxivPaper, FakeServices, crossref_work

from paperdesk.core.hub import service
from paperdesk.core.hub.hub import Hub, Limits


def _served(fake: FakeServices, before: int) -> float:
    """Seconds arXiv's and Crossref's stand-ins spent answering since request ``before``
    (the Hub's stand-in keeps no times: its answer counts as PaperDesk's, which
    overstates the figure a little)."""
    return sum(ended - began for began, ended, _ in fake.log[before:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    service.ARXIV_API.spacing = service.CROSSREF.spacing = 0.0
    with tempfile.TemporaryDirectory() as tmp, FakeServices() as fake, FakeHub() as hub:
        os.environ.update(fake.env)
        os.environ["HF_ENDPOINT"] = hub.url
        os.environ.pop("HF_HUB_OFFLINE", None)
        for n in range(args.runs + 1):
            arxiv_id = f"2612.{n:05d}"
            authors = [f"Author {n}", "Ada Lovelace", "Chen Wei"]
            fake.arxiv[arxiv_id] = ArxivPaper(arxiv_id, f"Bench Added Paper {n}",
                                              f"An abstract about added paper {n}.", authors)
            hub.add(record(arxiv_id, f"Bench Added Paper {n}", "x", authors, "2024-01-22",
                           upvotes=n))
            doi = f"10.1234/bench.{n}"
            fake.works[doi] = crossref_work(doi, f"Bench DOI Paper {n}",
                                            [("Ada", "Lovelace")], 2024)
        lib = make_library(Path(tmp) / "lib.sqlite", args.papers)
        overheads, totals, floors = [], [], []
        for n in range(args.runs):
            before = len(fake.log)
            start = time.perf_counter()
            lib.add([f"2612.{n:05d}", f"10.1234/bench.{n}"], hub=Hub(Limits(rate=500)))
            total = time.perf_counter() - start
            served = _served(fake, before)
            totals.append(total)
            overheads.append(total - served)
            start = time.perf_counter()
            for url in (f"{fake.url}/api/query?id_list=2612.{n:05d}",
                        f"{hub.url}/api/papers/2612.{n:05d}",
                        f"{fake.url}/works/10.1234/bench.{n}"):
                with urllib.request.urlopen(url) as answer:
                    answer.read()
            floors.append(time.perf_counter() - start)
        lib.close()
        header(f"add, one arXiv id and one DOI, into {args.papers:,} papers "
               f"(median of {args.runs})")
        report("add: beyond the services' answers", statistics.median(overheads),
               statistics.median(floors), 1.0)
        report("add: whole, the stand-ins' answers included", statistics.median(totals),
               statistics.median(floors), None)
        n = args.runs
        env = {**PROCESS_ENV, **fake.env, "HF_ENDPOINT": hub.url,
               "PYTHONPATH": str(ROOT / "src")}
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "paperdesk", "--library", str(Path(tmp) /
                        "lib.sqlite"), "add", f"2612.{n:05d}"], env=env, check=True,
                       capture_output=True)
        process = time.perf_counter() - start
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], env=env, check=True)
        bare = time.perf_counter() - start
        report("paperdesk add ID (a process of its own)", process, bare, None)
        note("floor of the process row: a bare Python process; the command waits out "
             "arXiv's 3 s spacing only between requests, and it makes one request to arXiv")


if __name__ == "__main__":
    main()

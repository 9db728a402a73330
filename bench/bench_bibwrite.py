"""The importing process's own work in a .bib import, without its reading processes:
their results (each chunk's entries) are replayed from a cache under bench/out/ (made
by a first, ordinary run), so that CPU seconds and memory measure only what the
importing process does: read, decode and scan the file, match and write the rows and
their search rows, the duplicate check of the new papers, the commit.

One process per run, each into a new library; per phase the median CPU seconds of
``--runs`` runs, and the process's peak (VmHWM; the cached results add their own size
to it, so it is an upper bound). ``--profile FILE`` writes a cProfile of the last run.
The cache is named for the file; delete it (bench/out/bibwrite-replay-*.pickle) when
the reading code changes what it sends.

    .venv/bin/python bench/bench_bibwrite.py [--only real|tugboat|arxiv] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_bibfile import arxiv_file, real_file, tugboat_file
from common import OUT, PROCESS_ENV, note

RUN = r"""
import cProfile, json, pickle, sys, time
from pathlib import Path
from paperdesk.core.importing import bib_pool, bibtex_import, bibtex_write
from paperdesk.core.importing.importer import import_file
from paperdesk.core.library import Library

bib, library, cache, profile_to = sys.argv[1:5]
cached = None
if Path(cache).exists():
    with open(cache, "rb") as f:
        cached = pickle.load(f)
original = bib_pool.ReaderPool.read


def read(self, chunks, *args, **kwargs):
    if cached is None:  # a first run: read as usual, and keep what came back
        out = list(original(self, chunks, *args, **kwargs))
        with open(cache, "wb") as f:
            pickle.dump(out, f, protocol=pickle.HIGHEST_PROTOCOL)
        yield from out
        return
    for _ in chunks:  # taken as the pool takes them
        pass
    self.close(now=True)
    yield from cached


def peak():
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) // 1024 for line in f if line.startswith("VmHWM"))


marks = []
def mark(what):
    marks.append((what, time.process_time(), peak()))


def wrap(owner, name, before):
    function = getattr(owner, name)
    def wrapped(*args, **kwargs):
        mark(before)
        return function(*args, **kwargs)
    setattr(owner, name, wrapped)


bib_pool.ReaderPool.read = read
wrap(bibtex_write.BibWriter, "write", "read, decode, scan")
wrap(bibtex_import, "note_new", "match and write")
lib = Library.open(library, create=True)
mark("start")
profile = cProfile.Profile() if profile_to else None
if profile:
    profile.enable()
report = import_file(lib, Path(bib))
if profile:
    profile.disable()
    profile.dump_stats(profile_to)
mark("duplicate check, commit")
lib.close()
mark("close")
assert report.status == "imported", report.error
phases = {}
for (_, cpu0, _), (name, cpu1, _) in zip(marks, marks[1:]):
    phases[name] = cpu1 - cpu0
phases["(the whole import)"] = marks[-2][1] - marks[0][1]
print(json.dumps({"phases": phases, "peak": max(m[2] for m in marks),
                  "replayed": cached is not None}))
"""


def run(bib: Path, tmp: Path, index: int, profile: str) -> dict:
    cache = OUT / f"bibwrite-replay-{bib.stem}.pickle"
    out = subprocess.run([sys.executable, "-c", RUN, str(bib), str(tmp / f"lib{index}.sqlite"),
                          str(cache), profile], capture_output=True, text=True,
                         env=PROCESS_ENV, check=False)
    if out.returncode != 0:
        raise SystemExit(out.stderr[-2000:])
    return json.loads(out.stdout.splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", choices=("real", "tugboat", "arxiv"))
    parser.add_argument("--profile", default="")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    files = (("real", real_file), ("tugboat", tugboat_file), ("arxiv", arxiv_file))
    with tempfile.TemporaryDirectory(dir=OUT) as name:
        tmp = Path(name)
        for label, make in files:
            if args.only and label != args.only:
                continue
            bib = make(args.entries)
            first = run(bib, tmp, 0, "")
            runs = [first] if first["replayed"] else []
            while len(runs) < args.runs:
                runs.append(run(bib, tmp, len(runs) + 1,
                                args.profile if len(runs) == args.runs - 1 else ""))
            print(f"\n.bib {label}, the importing process alone (readers replayed): "
                  f"median CPU seconds of {len(runs)}")
            for phase in runs[0]["phases"]:
                values = [r["phases"][phase] for r in runs]
                print(f"  {phase:30} {statistics.median(values):6.2f} s")
            note(f"peak (VmHWM, the replayed results included) "
                 f"{statistics.median(r['peak'] for r in runs):.0f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Whole `paperdesk` processes on a large library: the figures of the speed issue.

Each command runs as a process of its own (start-up, opening, the work,
closing, exit), as a script would run it, on a generated library of
100,000 papers (``--papers``). Every figure is printed beside a floor
measured in the same run: a bare ``python -c pass`` for the commands whose
floor is start-up, and for the others a bare Python process doing the same
work with sqlite3 and json directly. The peak memory (max RSS) of each
process is printed too.

1. ``stats --json`` (target <= 0.15 s).
2. A word search, ``list "training efficient" --limit 200 --json`` (<= 0.25 s).
3. ``duplicates --json`` (<= 2 s).
4. ``list --json`` of every paper (<= 4 s and <= 150 MB peak).
5. ``export -o FILE`` of every paper as BibTeX (<= 2 s).

    .venv/bin/python bench/bench_commands.py [--runs 5] [--papers 100000] [--only NAME]
"""

from __future__ import annotations

import statistics
import sys

from common import command_line, header, note, options, process_usage, report, scratch
from generate import make_library

# Measured as installed: with compiled bytecode (a shell that sets
# PYTHONDONTWRITEBYTECODE would make every process compile every module).

EXE = [sys.executable, "-m", "paperdesk"]

WORDS_FLOOR = """
import json, sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
ids = [r[0] for r in conn.execute(
    "SELECT rowid FROM papers_fts WHERE papers_fts MATCH ? ORDER BY rank LIMIT 200",
    ['"training" "efficient"'])]
cols = ["id", "title", "abstract", "authors", "year", "rating", "status", "citekey"]
rows = conn.execute("SELECT " + ", ".join(cols) + " FROM papers WHERE id IN (%s)"
                    % ",".join("?" * len(ids)), ids)
json.dump([dict(zip(cols, r)) for r in rows], sys.stdout, indent=2)
"""

LIST_FLOOR = """
import json, sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
cols = ["id", "title", "abstract", "authors", "year", "rating", "status", "citekey"]
out = sys.stdout
out.write("[")
for n, r in enumerate(conn.execute("SELECT " + ", ".join(cols) + " FROM papers ORDER BY added")):
    out.write(("," if n else "") + json.dumps(dict(zip(cols, r)), indent=2))
out.write("]")
"""

EXPORT_FLOOR = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
with open(sys.argv[2], "w", encoding="utf-8") as f:
    for r in conn.execute("SELECT citekey, title, abstract, year FROM papers ORDER BY id"):
        f.write("@misc{%s,\\n  title = {%s},\\n  year = {%s},\\n  abstract = {%s}\\n}\\n\\n"
                % (r[0], r[1], r[3], r[2]))
"""


def median_run(command: list[str], runs: int) -> tuple[float, float, float]:
    """Median wall seconds, median CPU seconds (user + system) and the largest peak (MB)."""
    results = [process_usage(command) for _ in range(runs)]
    return (statistics.median(r[0] for r in results), statistics.median(r[1] for r in results),
            max(r[2] for r in results))


def figure(name: str, command: list[str], floor: list[str], target: float, runs: int,
           memory: float | None = None) -> bool:
    seconds, cpu, peak = median_run(command, runs)
    floor_s, floor_cpu, floor_peak = median_run(floor, runs)
    ok = report(name, seconds, floor_s, target)
    note(f"CPU {cpu:.2f} s (floor {floor_cpu:.2f} s): the wall time follows the load, "
         "the CPU time much less")
    line = f"peak memory {peak:.0f} MB (floor {floor_peak:.0f} MB)"
    if memory is not None:
        met = peak <= memory
        ok &= met
        line += f"; target <= {memory:.0f} MB: {'met' if met else 'NOT met'}"
    note(line)
    return ok


def main() -> int:
    parser = command_line(__doc__, 5, "runs per figure (median)",
                          shape="the generated library's")
    parser.add_argument("--papers", type=int, default=100_000, help="library size")
    parser.add_argument("--only", choices=["stats", "words", "duplicates", "list", "export"])
    parser.add_argument("--digest-size", type=int, default=5000,
                        help="entries a digest (the papers come in digests of this size)")
    args = options(parser)
    ok = True
    with scratch() as tmp:
        lib = make_library(tmp / "commands.sqlite", args.papers, digest_size=args.digest_size)
        path = str(lib.path)
        lib.close()
        bare = [sys.executable, "-c", "pass"]
        lib_args = [*EXE, "--library", path]
        header(f"Whole processes on {args.papers:,} papers, {args.shape} shape, digests of "
               f"{args.digest_size:,} "
               f"(runs: {args.runs})")
        cases = {
            "stats": lambda: figure("stats --json", [*lib_args, "stats", "--json"], bare,
                                    0.15, args.runs),
            "words": lambda: figure(
                'list "training efficient" --limit 200 --json',
                [*lib_args, "list", "training efficient", "--limit", "200", "--json"],
                [sys.executable, "-c", WORDS_FLOOR, path], 0.25, args.runs),
            "duplicates": lambda: figure("duplicates --json", [*lib_args, "duplicates", "--json"],
                                         bare, 2.0, args.runs),
            "list": lambda: figure("list --json, every paper", [*lib_args, "list", "--json"],
                                   [sys.executable, "-c", LIST_FLOOR, path], 4.0, args.runs,
                                   memory=150),
            "export": lambda: figure(
                "export -o FILE, every paper (BibTeX)",
                [*lib_args, "export", "-o", str(tmp / "out.bib")],
                [sys.executable, "-c", EXPORT_FLOOR, path, str(tmp / "floor.bib")], 2.0,
                args.runs),
        }
        for key, case in cases.items():
            if args.only in (None, key):
                ok &= case()
    print("\nall targets met" if ok else "\nSOME TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())

"""A large .bib file in and out again: import it into an empty library, then export
the library as BibTeX, each as a whole `paperdesk` process (wall time, peak memory).

Three generated files of ``--entries`` (100,000) entries, written under bench/out/:

- real: the real entries of seven real bibliographies (TeX Live's TUGboat,
  texjourn and typeset bibliographies, two theses' under bench/corpus/, JabRef's and
  biber's test files), made unique (keys, and titles varied per copy): real_bib.py;
- tugboat: the entries of TeX Live's ``tugboat.bib`` (Nelson Beebe's TUGboat
  bibliography, ``kpsewhich tugboat.bib``) replicated with unique keys and
  titles varied by two words per copy, its @String and @Preamble blocks kept once
  (the file of the earlier figures);
- arXiv-style: @misc entries with eprint, authors and abstracts of about 1,200
  characters, from generate.py's paper universe.

Targets: real and tugboat <= 9 s and <= 500 MB, arXiv-style <= 12 s and <= 500 MB (import
and export together). The floor is bibtexparser parsing the same file alone.

    .venv/bin/python bench/bench_bibfile.py [--entries 100000] [--runs 1]
        [--only real|tugboat|arxiv]
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import generate
import real_shape
from common import (
    OUT,
    command_line,
    header,
    note,
    options,
    process_usage,
    process_usage_together,
    report,
    scratch,
    verdict,
)
from generate import paper
from real_bib import WORDS, real_bib

# Measured as installed: with compiled bytecode (a shell that sets
# PYTHONDONTWRITEBYTECODE would make every process compile every module).

TUGBOAT = Path("/usr/share/texlive/texmf-dist/bibtex/bib/beebe/tugboat.bib")
PARSE_FLOOR = """
import sys, bibtexparser
bibtexparser.parse_string(open(sys.argv[1], encoding="utf-8").read())
"""


def tugboat_file(n: int) -> Path:
    path = OUT / f"bib-tugboat-{n}.bib"
    if path.exists():
        return path
    source = TUGBOAT
    if not source.exists():
        found = shutil.which("kpsewhich") and subprocess.run(
            ["kpsewhich", "tugboat.bib"], capture_output=True, text=True).stdout.strip()
        if not found:
            raise SystemExit("tugboat.bib not found (install texlive-bibtex-extra)")
        source = Path(found)
    text = source.read_text(encoding="utf-8", errors="replace")
    blocks = re.split(r"\n(?=@)", text)
    head = [b for b in blocks if re.match(r"@(String|Preamble)\b", b, re.I)]
    entries = [b for b in blocks if re.match(r"@\w+\{", b) and not re.match(
        r"@(String|Preamble|Comment)\b", b, re.I)]
    rng = random.Random(0)
    out = ["\n".join(head)]
    for i in range(n):
        entry = entries[i % len(entries)]
        copy = i // len(entries)
        entry = re.sub(r"^(@\w+\{)([^,]+),", rf"\g<1>\g<2>:{copy},", entry, count=1)
        if copy:
            a, b = rng.choice(WORDS), rng.choice(WORDS)
            entry = re.sub(r'(\n\s*title\s*=\s*)(["{])', rf"\g<1>\g<2>{a} {b} {copy}: ", entry,
                           count=1, flags=re.I)
        out.append(entry)
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


def real_file(n: int) -> Path:
    """The seven real bibliographies' entries made unique (real_bib.py); prints
    how many entries each gives."""
    path = OUT / f"bib-real7-{n}.bib"
    counts = real_bib(path, n)
    note("real entries per bibliography (cycled to the file's size): " + ", ".join(
        f"{name} {count:,}" for name, count in counts.items()))
    return path


def arxiv_file(n: int) -> Path:
    """arXiv-style entries: in the real shape (generate.SHAPE), real_shape.bib_entry's
    (accented names, particles, math, 150-word abstracts); else the first file's."""
    real = generate.SHAPE == "real"
    path = OUT / f"bib-arxiv{'-real' if real else ''}-{n}.bib"
    if path.exists():
        return path
    with path.open("w", encoding="utf-8") as f:
        for i in range(n):
            if real:
                f.write(real_shape.bib_entry(i, random.Random(i)))
                continue
            p = paper(i, seed=3)
            year = 2015 + i % 10
            f.write(f"@misc{{arxiv{i},\n  title = {{{p.title}}},\n"
                    f"  author = {{Author{i % 977}, Ann and Writer{i % 613}, Bo}},\n"
                    f"  year = {{{year}}},\n  eprint = {{{year % 100:02d}{(i % 12) + 1:02d}."
                    f"{i % 100000:05d}}},\n  archivePrefix = {{arXiv}},\n"
                    f"  primaryClass = {{cs.LG}},\n  abstract = {{{p.abstract}}}\n}}\n\n")
    return path


# The least the import writes: every row it left in the library's own tables (and the
# papers' search rows), written by plain sqlite3 into an empty library without its
# triggers, one executemany a table in one transaction. Only the writing is timed; the
# rows are read first. Prints wall and CPU seconds.
WRITE_FLOOR = """
import sqlite3, sys, time
src, dest = sqlite3.connect(sys.argv[1]), sqlite3.connect(sys.argv[2], isolation_level=None)
for (name,) in dest.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
    dest.execute(f'DROP TRIGGER "{name}"')
tables = [t for (t,) in src.execute(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '%fts%' "
    "AND name NOT LIKE 'sqlite%' AND name != '_sqlite_migrations'")]
rows = {t: src.execute(f'SELECT * FROM "{t}"').fetchall() for t in tables}
FTS = "rowid, title, abstract, notes, tags"
rows["papers_fts"] = src.execute(f"SELECT {FTS} FROM papers_fts").fetchall()
dest.execute("PRAGMA journal_mode = WAL"); dest.execute("PRAGMA synchronous = NORMAL")
wall, cpu = time.perf_counter(), time.process_time()
dest.execute("BEGIN IMMEDIATE")
for t, r in rows.items():
    if r:
        cols = FTS if t == "papers_fts" else ""
        dest.execute(f'DELETE FROM "{t}"')  # rows an empty library starts with (id_tops)
        dest.executemany(f'INSERT INTO "{t}" {"(" + cols + ")" if cols else ""} VALUES '
                         f'({",".join("?" * len(r[0]))})', r)
dest.execute("COMMIT")
print(time.perf_counter() - wall, time.process_time() - cpu)
"""


def write_floor(lib: Path, tmp: Path) -> tuple[float, float]:
    """Wall and CPU seconds of writing ``lib``'s rows raw into an empty library."""
    empty = tmp / "write-floor.sqlite"
    for stale in tmp.glob("write-floor.sqlite*"):
        stale.unlink()
    subprocess.run([sys.executable, "-c", "import sys; from paperdesk.core.api import Library; "
                    "Library.open(sys.argv[1], new=True).close()", str(empty)], check=True)
    out = subprocess.run([sys.executable, "-c", WRITE_FLOOR, str(lib), str(empty)], check=True,
                         capture_output=True, text=True).stdout.split()
    return float(out[0]), float(out[1])


def round_trip(bib: Path, tmp: Path) -> tuple[tuple[float, float, float, float],
                                             tuple[float, float, float, float], int, Path]:
    """(wall, CPU, peak MB, MB held at once) of the import and of the export, the library's size in
    bytes after the import (its write-ahead log included), and the library."""
    for stale in tmp.glob(f"{bib.stem}*.sqlite*"):
        stale.unlink()
    # a new name each run: PaperDesk remembers its libraries and refuses one gone missing
    lib = tmp / f"{bib.stem}-{len(list(tmp.glob('*.run'))):02d}.sqlite"
    (tmp / f"{lib.stem}.run").touch()
    exe = [sys.executable, "-m", "paperdesk", "--library", str(lib)]
    imported = process_usage_together([*exe, "import", str(bib)])
    size = sum(p.stat().st_size for p in (lib, Path(f"{lib}-wal")) if p.exists())
    return (imported, process_usage_together([*exe, "export", "-o", str(tmp / "out.bib")]),
            size, lib)


def main() -> int:
    parser = command_line(__doc__, 1, shape="the arXiv-style file's")
    parser.add_argument("--entries", type=int, default=100_000)
    parser.add_argument("--only", choices=("real", "tugboat", "arxiv"))
    args = options(parser)
    ok = True
    with scratch() as tmp:
        for label, make, target in (
                ("real entries of seven real files, made unique", real_file, 9.0),
                ("tugboat.bib replicated", tugboat_file, 9.0),
                ("arXiv-style with abstracts", arxiv_file, 12.0)):
            if args.only and not label.lower().startswith(args.only):
                continue
            bib = make(args.entries)
            runs = sorted((round_trip(bib, tmp) for _ in range(args.runs)),
                          key=lambda r: r[0][0] + r[1][0])
            (t_in, c_in, m_in, h_in), (t_out, c_out, m_out, h_out), size, lib = \
                runs[len(runs) // 2]
            floor, c_floor, _ = process_usage([sys.executable, "-c", PARSE_FLOOR, str(bib)])
            header(f".bib {label}: {args.entries:,} entries, "
                   f"{bib.stat().st_size / 2**20:.0f} MiB")
            ok &= report("import + export, two processes", t_in + t_out, floor, target)
            report("the same, CPU seconds (user + system)", c_in + c_out, c_floor, None)
            peak = max(m_in, m_out)
            note(f"import {t_in:.2f} s ({c_in:.2f} s CPU, {m_in:.0f} MB peak), export "
                 f"{t_out:.2f} s ({c_out:.2f} s CPU, {m_out:.0f} MB peak); floor = "
                 f"bibtexparser parsing the file alone; memory target <= 500 MB: "
                 f"{'met' if peak <= 500 else 'NOT met'}; library after the import "
                 f"{size / 1e6:.0f} MB")
            ok &= peak <= 500
            note(f"held at once (the largest sum of the processes' resident memory in one "
                 f"20 ms sample): import {h_in:.0f} MB, export {h_out:.0f} MB; the peak "
                 f"above sums each process's own peak, an upper bound")
            w_wall, w_cpu = write_floor(lib, tmp)
            note(f"second floor: the rows the import wrote, written raw (plain sqlite3, no "
                 f"triggers, search rows included): {w_wall:.2f} s ({w_cpu:.2f} s CPU); the "
                 f"import {t_in / w_wall:.1f}x that")
    return verdict(ok)


if __name__ == "__main__":
    raise SystemExit(main())

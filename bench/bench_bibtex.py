"""BibTeX speed: the figures of the BibTeX issue.

1. Export of a 100,000-paper library to a .bib file (target <= 2 s), beside
   bibtexparser's default writer on the same entries (built beforehand, so its
   time is writing only), bibtexparser's writer with no middlewares (which must
   give the very same text), and the raw SELECT of the rows an export reads.
2. Import of a 10,000-entry .bib file into an empty library (target <= 5 s),
   beside bibtexparser's parse of the same file (parsing only, no database).

The library comes from bench/generate.py; a third of its papers get two tags
and a fifth get author names, so that every kind of field is written. The
machine is shared: wall-clock medians are printed with CPU-time medians.

    .venv/bin/python bench/bench_bibtex.py [--runs 3]
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import bibtexparser

from common import command_line, header, note, options, report
from generate import make_library
from paperdesk.core.db import schema
from paperdesk.core.library import Library

EXPORT_PAPERS = 100_000
IMPORT_ENTRIES = 10_000


def medians(fn: Callable[[], Any], runs: int, setup: Callable[[], Any] | None = None
            ) -> tuple[float, float]:
    """(wall, cpu) medians over ``runs`` runs; ``setup()`` runs untimed before each."""
    walls, cpus = [], []
    for _ in range(runs):
        arg = setup() if setup else None
        wall, cpu = time.perf_counter(), time.process_time()
        fn(arg) if setup else fn()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def enrich(lib: Library) -> None:
    """Tags on a third of the papers, names on a fifth: the fields real libraries have."""
    db = lib.db
    with lib.transaction():
        for name in schema.TRIGGER_NAMES:  # the full-text index is not what is measured
            db.execute(f"DROP TRIGGER {name}")
        db.conn.executemany("INSERT INTO tags (name, name_key) VALUES (?, ?)",
                            [(f"Topic {n}", f"topic {n}") for n in range(20)])
        db.execute("INSERT INTO paper_tags (paper_id, tag_id) SELECT id, 1 + id % 20 "
                   "FROM papers WHERE id % 3 = 0")
        db.execute("INSERT INTO paper_tags (paper_id, tag_id) SELECT id, 1 + (id + 7) % 20 "
                   "FROM papers WHERE id % 3 = 0")
        names = json.dumps(["Ada Lovelace", "Jürgen Müller", "Grace Hopper"], ensure_ascii=False)
        db.execute("UPDATE papers SET authors = ? WHERE id % 5 = 0", [names])
        schema.recreate_triggers(db)


def reference_library(text: str, *, enclosed: bool) -> bibtexparser.Library:
    """The same entries as bibtexparser objects; ``enclosed``: values keep their braces."""
    library = bibtexparser.parse_string(text, parse_stack=[])
    if not enclosed:
        for entry in library.entries:
            for f in entry.fields:
                value = f.value
                if value.startswith("{") and value.endswith("}"):
                    f.value = value[1:-1]
    return library


def bench_export(work: Path, runs: int) -> bool:
    lib = make_library(work / "export.sqlite", EXPORT_PAPERS)
    enrich(lib)
    out = work / "export.bib"
    count = lib.bibtex.export_to(out)
    assert count == EXPORT_PAPERS, count
    text = out.read_text(encoding="utf-8")
    note(f"{count:,} entries, {len(text.encode()) / 2**20:.0f} MiB")

    ours = medians(lambda: lib.bibtex.export_to(out), runs)
    select = medians(lambda: (
        lib.db.execute("SELECT id, citekey, title, abstract, authors, organization, published,"
                       " year, arxiv_id, doi, url, bib_type, bib_fields FROM papers"
                       " WHERE deleted_at IS NULL ORDER BY id").fetchall(),
        lib.db.execute("SELECT pt.paper_id, t.name FROM paper_tags pt JOIN tags t"
                       " ON t.id = pt.tag_id").fetchall()), runs)
    plain = reference_library(text, enclosed=True)
    same = bibtexparser.write_string(plain, unparse_stack=[]) == text
    bare = medians(lambda: bibtexparser.write_string(plain, unparse_stack=[]), runs)
    default = reference_library(text, enclosed=False)
    reference = medians(lambda: bibtexparser.write_string(default), max(1, runs - 1))
    lib.close()

    header(f"BibTeX export of {EXPORT_PAPERS:,} papers (floor: bibtexparser's default writer)")
    met = report("export_to(), from the library to a file (wall)", ours[0], reference[0], 2.0)
    report("  the same, CPU time", ours[1], reference[1], 2.0)
    report("bibtexparser.write_string, default (wall)", reference[0], None, None)
    report("bibtexparser.write_string, no middlewares (wall)", bare[0], None, None)
    report("raw SELECT of the rows and tags (wall)", select[0], None, None)
    note(f"our file is byte for byte bibtexparser's own output for its entries: {same}")
    note(f"export / raw SELECT: {ours[0] / select[0]:.1f}x; "
         f"export / writer without middlewares: {ours[0] / bare[0]:.1f}x")
    return met and same


def bench_import(work: Path, runs: int) -> bool:
    source = make_library(work / "source.sqlite", IMPORT_ENTRIES)
    enrich(source)
    bib = work / "import.bib"
    source.bibtex.export_to(bib, notes=True)
    source.close()
    text = bib.read_text(encoding="utf-8")
    counter = iter(range(1000))

    def fresh() -> Library:
        return Library.open(work / f"import-{next(counter)}.sqlite")

    def run(lib: Library) -> None:
        [result] = lib.import_paths([bib])
        assert result.new_papers == IMPORT_ENTRIES, (result.status, result.error)
        lib.close()

    ours = medians(run, runs, setup=fresh)
    parse = medians(lambda: bibtexparser.parse_string(text), runs)
    header(f"BibTeX import of a {IMPORT_ENTRIES:,}-entry file (floor: bibtexparser's parse)")
    met = report("import into an empty library (wall)", ours[0], parse[0], 5.0)
    report("  the same, CPU time", ours[1], parse[1], 5.0)
    report("bibtexparser.parse_string alone (wall)", parse[0], None, None)
    return met


def main() -> int:
    args = options(command_line(__doc__, 3, "runs per figure (median)"))
    with tempfile.TemporaryDirectory() as tmp:
        ok = bench_export(Path(tmp), args.runs)
        ok = bench_import(Path(tmp), args.runs) and ok
    print("\nall targets met" if ok else "\nsome targets NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())

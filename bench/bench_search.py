"""Search and curation speed: the figures of the curation issue, on 100,000 papers.

1. A word query returning the top 200 by relevance (target <= 50 ms), for a
   word in about 5% of the papers and one in about a third of them, beside a
   raw FTS5 ``MATCH ... ORDER BY rank LIMIT 200`` of the same words.
2. A field query, ``rating>=4 tag:x``, first 200 and all of them (target
   <= 30 ms), beside the same raw FTS5 MATCH and a hand-written SQL join.
3. Tagging 10,000 papers in one undoable operation (target <= 0.3 s; its undo
   <= 0.5 s), beside a
   raw FTS5 rewrite of those 10,000 index rows (delete, insert, commit: what
   keeping tags searchable as words costs at least) and a raw ``executemany``
   of the same paper_tags rows with the index triggers firing; undoing the
   operation is printed too.
4. Rating 20,000 papers in one undoable operation and undoing it (target for
   the undo <= 0.5 s), beside a raw ``executemany`` UPDATE of the same rows'
   rating and modified stamp, committed; the undo's CPU seconds are printed
   beside the floor's too (they follow the machine's load less than wall time).

The library is generated (bench/generate.py), then curated at random: ratings,
tags, statuses and notes on a share of the papers.

    .venv/bin/python bench/bench_search.py [--runs 5] [--papers 100000]
"""

from __future__ import annotations

import random
import sqlite3
import statistics
import time
from collections.abc import Callable
from typing import Any

from common import command_line, header, median_time, note, options, report, scratch, verdict
from generate import make_library
from paperdesk.core.db import schema, store
from paperdesk.core.library import Library


def curate(lib: Library, seed: int = 7) -> None:
    """Ratings on 40% of the papers, tags, statuses and notes, through the curation API."""
    rng = random.Random(seed)
    ids = [r[0] for r in lib.db.execute("SELECT id FROM papers ORDER BY id")]
    shuffled = ids[:]
    rng.shuffle(shuffled)
    share = len(ids) // 12
    for stars in range(1, 6):
        lib.curation.set_rating(shuffled[(stars - 1) * share:stars * share], stars)
    for name, fraction in (("x", 0.05), ("vision", 0.10), ("reading group", 0.02)):
        lib.curation.add_tags(rng.sample(ids, int(len(ids) * fraction)), [name])
    lib.curation.set_status(rng.sample(ids, len(ids) // 30), "to-read")
    lib.curation.set_status(rng.sample(ids, len(ids) // 20), "read")
    for pid in rng.sample(ids, 300):
        lib.curation.add_note(pid, f"Note on paper {pid}: compare the ablation in section 4.")


def document_counts(conn: sqlite3.Connection) -> list[tuple[str, int]]:
    conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.bench_vocab "
                 "USING fts5vocab(main, papers_fts, row)")
    return conn.execute("SELECT term, doc FROM temp.bench_vocab WHERE length(term) > 4 "
                        "ORDER BY doc DESC").fetchall()


def pick_word(counts: list[tuple[str, int]], papers: int, share: float) -> tuple[str, int]:
    return min(counts, key=lambda tc: abs(tc[1] - papers * share))


def raw_fts(conn: sqlite3.Connection, expr: str) -> list[int]:
    return [r[0] for r in conn.execute(
        "SELECT rowid FROM papers_fts WHERE papers_fts MATCH ? ORDER BY rank LIMIT 200", [expr])]


def word_figures(lib: Library, conn: sqlite3.Connection, runs: int) -> bool:
    papers = lib.stats()["papers"]
    counts = document_counts(conn)
    ok = True
    header("Word queries, top 200 by relevance")
    for share in (0.05, 0.33):
        word, docs = pick_word(counts, papers, share)
        ids = lib.search(word, limit=200).ids
        assert len(ids) == 200 and set(ids) <= set(lib.search(word).ids)
        floor = median_time(lambda w=word: raw_fts(conn, f'"{w}"'), runs)
        took = median_time(lambda w=word: lib.search(w, limit=200), runs)
        ok &= report(f"'{word}' ({docs:,} papers match)", took, floor, 0.050)
    word, docs = pick_word(counts, papers, 0.33)
    floor = median_time(lambda: conn.execute(
        "SELECT rowid FROM papers_fts WHERE papers_fts MATCH ? ORDER BY rank",
        [f'"{word}"']).fetchall(), runs)
    report(f"'{word}', every match ranked (what the table loads)",
           median_time(lambda: lib.search(word), runs), floor, None)
    first, second = pick_word(counts, papers, 0.10)[0], pick_word(counts, papers, 0.20)[0]
    query = f"{first} {second}"
    matched = len(lib.search(query).ids)
    floor = median_time(lambda: raw_fts(conn, f'"{first}" "{second}"'), runs)
    took = median_time(lambda: lib.search(query, limit=200), runs)
    ok &= report(f"'{query}' ({matched:,} match)", took, floor, 0.050)
    return ok


def field_figures(lib: Library, conn: sqlite3.Connection, runs: int) -> bool:
    query = "rating>=4 tag:x"
    tag_id = conn.execute("SELECT id FROM tags WHERE name_key = 'x'").fetchone()[0]
    hand = ("SELECT p.id FROM papers p JOIN paper_tags pt ON pt.paper_id = p.id "
            "WHERE pt.tag_id = ? AND p.rating >= 4 AND p.deleted_at IS NULL "
            "ORDER BY p.added, p.id")
    every = lib.search(query).ids
    assert every == [r[0] for r in conn.execute(hand, [tag_id])]
    word = pick_word(document_counts(conn), lib.stats()["papers"], 0.05)[0]
    fts_floor = median_time(lambda: raw_fts(conn, f'"{word}"'), runs)
    sql_floor = median_time(lambda: conn.execute(hand + " LIMIT 200", [tag_id]).fetchall(), runs)
    sql_all = median_time(lambda: conn.execute(hand, [tag_id]).fetchall(), runs)
    header(f"Field query '{query}' ({len(every):,} papers match)")
    ok = report("first 200, vs raw FTS5 MATCH top 200",
                median_time(lambda: lib.search(query, limit=200), runs), fts_floor, 0.030)
    ok &= report("first 200, vs hand-written SQL",
                 median_time(lambda: lib.search(query, limit=200), runs), sql_floor, 0.030)
    ok &= report("all of them, vs hand-written SQL",
                 median_time(lambda: lib.search(query), runs), sql_all, 0.030)
    header("Every id, sorted (what the table loads), beside a plain SELECT ... ORDER BY")
    columns = {"added": "added", "title": "title_key", "year": "year", "upvotes": "upvotes",
               "rating": "rating", "status": "status", "digests": "seen_count"}
    for sort, column in columns.items():
        raw_sort = median_time(lambda c=column: conn.execute(
            f"SELECT id FROM papers WHERE deleted_at IS NULL ORDER BY {c}").fetchall(), runs)
        report(f"sorted by {sort}", median_time(lambda s=sort: lib.search("", sort=s), runs),
               raw_sort, None)
    mixed = f"{word} rating>=4 -tag:vision"
    report(f"'{mixed}' top 200 by relevance",
           median_time(lambda: lib.search(mixed, limit=200), runs), fts_floor, None)
    return ok


def tagging_figures(lib: Library, conn: sqlite3.Connection, runs: int) -> bool:
    ids = [r[0] for r in conn.execute("SELECT id FROM papers ORDER BY id")]
    part = random.Random(3).sample(ids, 10_000)
    names = iter(f"bench tag {n}" for n in range(runs))
    done = []

    def tag(name: str) -> None:
        done.append(lib.curation.add_tags(part, [name]))

    took = median_time(tag, runs, setup=lambda: next(names))
    assert all(c.result["tagged"] == 10_000 for c in done)
    undo = median_time(lambda c: lib.undo(c.undo), runs, setup=lambda: done.pop())
    assert not conn.execute("SELECT 1 FROM tags WHERE name LIKE 'bench tag%'").fetchone()

    tag_id = conn.execute("SELECT id FROM tags WHERE name_key = 'x'").fetchone()[0]
    conn.execute("CREATE TEMP TABLE bench_ids (id INTEGER PRIMARY KEY)")
    conn.executemany("INSERT INTO bench_ids VALUES (?)", [(pid,) for pid in part])

    def raw_rows() -> None:
        conn.execute("BEGIN IMMEDIATE")
        conn.executemany("INSERT OR IGNORE INTO paper_tags (paper_id, tag_id) VALUES (?, ?)",
                         [(pid, tag_id + 1000) for pid in part])
        conn.execute("ROLLBACK")

    def raw_index() -> None:
        """What keeping tags searchable cost while they shared papers_fts's rows with the
        abstract: rewrite those 10,000 rows of the index, and commit."""
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("DELETE FROM papers_fts WHERE rowid IN (SELECT id FROM bench_ids)")
        conn.execute("INSERT INTO papers_fts (rowid, title, abstract, notes, tags) "
                     "SELECT id, title, abstract, '', 'bench' FROM papers "
                     "WHERE id IN (SELECT id FROM bench_ids)")
        conn.execute("COMMIT")

    def raw_annotations(_: object = None) -> None:
        """The least this design must do: the tag rows and those papers' small rows of
        annotations_fts rewritten in set-based statements, and commit."""
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("DROP TRIGGER paper_tags_fts_insert")  # back before the commit
        conn.execute("INSERT OR IGNORE INTO paper_tags (paper_id, tag_id) "
                     "SELECT id, ? FROM bench_ids", [tag_id + 1000])
        conn.execute("DELETE FROM annotations_fts WHERE rowid IN (SELECT id FROM bench_ids)")
        conn.execute("INSERT INTO annotations_fts (rowid, title, abstract, notes, tags) "
                     "SELECT id, '', '', '', 'bench' FROM bench_ids")
        conn.execute(next(t for t in schema.TRIGGERS if "paper_tags_fts_insert" in t))
        conn.execute("COMMIT")

    def put_back() -> None:
        """Untimed: the true rows back after a floor run."""
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("DELETE FROM paper_tags WHERE tag_id = ?", [tag_id + 1000])
        for statement in store.reindex_statements(source):
            conn.execute(statement)
        conn.execute("COMMIT")

    conn.execute("PRAGMA foreign_keys = OFF")  # the floor's tag id needs no tags row
    source = "papers p WHERE p.id IN (SELECT id FROM bench_ids)"
    rows_floor = median_time(raw_rows, runs)
    index_floor = median_time(raw_index, runs)
    notes_floor = median_time(raw_annotations, runs, setup=put_back)
    put_back()
    header("Tagging 10,000 papers in one operation")
    ok = report("add_tags, vs raw rows + annotations_fts rows", took, notes_floor, 0.3)
    report("add_tags, vs raw paper_tags executemany", took, rows_floor, 0.3)
    report("add_tags, vs the old floor: raw papers_fts rewrite", took, index_floor, 0.3)
    ok &= report("undo of it, vs raw rows + annotations_fts rows", undo, notes_floor, 0.5)
    report("undo of it, vs the old floor: raw papers_fts rewrite", undo, index_floor, 0.5)
    return ok


def rating_figures(lib: Library, conn: sqlite3.Connection, runs: int) -> bool:
    ids = [r[0] for r in conn.execute("SELECT id FROM papers ORDER BY id")]
    rng = random.Random(5)
    done = []
    many = min(20_000, len(ids) // 2)  # a smaller library (--papers 10000): half of it

    def rate(stars: int) -> None:
        done.append(lib.curation.set_rating(rng.sample(ids, many), stars))

    cpu: dict[str, list[float]] = {"undo": [], "floor": []}

    def on_cpu(name: str, fn: Callable[[Any], None]) -> Callable[[Any], None]:
        """``fn``, its CPU seconds (this process's, SQLite's included) kept under ``name``."""
        def run(arg: Any) -> None:
            start = time.process_time()
            fn(arg)
            cpu[name].append(time.process_time() - start)
        return run

    stars = iter([1, 2, 3, 4, 5] * runs)
    took = median_time(rate, runs, setup=lambda: next(stars))
    undo = median_time(on_cpu("undo", lambda c: lib.undo(c.undo)), runs,
                       setup=lambda: done.pop())

    def raw(rows: list[tuple]) -> None:
        conn.execute("BEGIN IMMEDIATE")
        conn.executemany("UPDATE papers SET rating = ?, modified = ? WHERE id = ?", rows)
        conn.execute("COMMIT")

    def rows() -> list[tuple]:
        chosen = ",".join(map(str, rng.sample(ids, many)))
        return [(r[1] + 1, r[2], r[0]) for r in conn.execute(
            f"SELECT id, rating % 5, modified FROM papers WHERE id IN ({chosen})")]

    floor = median_time(on_cpu("floor", raw), runs, setup=rows)
    header("Rating 20,000 papers in one operation")
    report("set_rating, vs raw executemany UPDATE", took, floor, None)
    ok = report("undo of it, vs raw executemany UPDATE", undo, floor, 0.5)
    report("undo of it, CPU seconds, vs the floor's", statistics.median(cpu["undo"]),
           statistics.median(cpu["floor"]), None)
    return ok


def main() -> int:
    parser = command_line(__doc__, 5, "runs per figure (median)")
    parser.add_argument("--papers", type=int, default=100_000, help="library size")
    parser.add_argument("--only", choices=["words", "fields", "tagging", "rating"],
                        help="one group only")
    args = options(parser)
    with scratch() as tmp:
        lib = make_library(tmp / "search.sqlite", args.papers)
        note(f"library of {lib.stats()['papers']:,} papers; curating it ...")
        curate(lib)
        lib.db.execute("PRAGMA optimize")
        conn = sqlite3.connect(lib.path, isolation_level=None)
        try:
            ok = True
            for name, figures in (("words", word_figures), ("fields", field_figures),
                                  ("tagging", tagging_figures), ("rating", rating_figures)):
                if args.only in (None, name):
                    ok &= figures(lib, conn, args.runs)
        finally:
            conn.close()
            lib.close()
    return verdict(ok)


if __name__ == "__main__":
    raise SystemExit(main())

"""stats: the right counts, each read from an index, never by scanning the papers' rows."""

from __future__ import annotations


def test_stats_counts_match_the_rows(seed_lib):
    ids = seed_lib.search("", sort="id").ids
    seed_lib.trash.delete(ids[:7])
    one = lambda sql: seed_lib.db.execute(sql).fetchone()[0]  # noqa: E731
    stats = seed_lib.stats()
    assert stats["papers"] == one("SELECT count(*) FROM papers WHERE deleted_at IS NULL") == 186
    assert stats["trash"] == 7
    assert stats["year_inferred"] == one(
        "SELECT count(*) FROM papers NOT INDEXED WHERE year_inferred = 1") > 0


def test_stats_reads_no_paper_row(seed_lib):
    statements: list[str] = []
    seed_lib.db.conn.set_trace_callback(statements.append)
    try:
        seed_lib.stats()
    finally:
        seed_lib.db.conn.set_trace_callback(None)
    papers = [s for s in statements if "FROM papers" in s]
    assert len(papers) == 3
    for sql in papers:
        plan = [row[3] for row in seed_lib.db.execute("EXPLAIN QUERY PLAN " + sql)]
        assert all("COVERING INDEX" in step for step in plan), (sql, plan)

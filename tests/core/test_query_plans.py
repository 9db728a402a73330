"""How SQLite is asked for a page of records where a library holds one large digest:
each paper's sightings are found by the paper, never by walking every sighting of the
digest (which made `list --json` of 100,000 papers from one digest 2-2.6x slower)."""

from __future__ import annotations

from tests.core.test_duplicates import write_digest


def test_records_find_sightings_by_paper_in_a_one_digest_library(lib, tmp_path):
    entries = [(f"Paper {i} on Sparse Attention", f"Abstract {i} about attention.")
               for i in range(3000)]
    lib.import_paths([write_digest(tmp_path / "one.txt", entries)])
    lib.db.execute("ANALYZE")  # the statistics a library gathers as it is used
    ids = list(lib.search("").ids)
    statements: list[str] = []
    lib.db.conn.set_trace_callback(statements.append)
    try:
        records = lib.papers(ids)
    finally:
        lib.db.conn.set_trace_callback(None)
    assert len(records) == 3000 and all(r["digests"] for r in records)
    reads = [s for s in statements if "sightings" in s and s.lstrip().startswith("SELECT")]
    assert reads
    for sql in reads:
        plan = [r[3] for r in lib.db.execute("EXPLAIN QUERY PLAN " + sql)]
        # the sightings are read first (by paper, or all of them where that is less),
        # the digests looked up for them: never each digest's sightings walked
        assert plan[0].startswith(("SEARCH s ", "SCAN s")), plan
        assert not any("sightings_digest" in step for step in plan), plan

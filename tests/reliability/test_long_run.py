"""A long run: 200 digests of 1,000 entries each, full of repeats, imported one after
another. Afterwards the library holds each distinct paper once, and every paper's
sightings, "seen in N digests" and upvotes are exactly what the digests say."""

from __future__ import annotations

import random
import sqlite3
import time
from collections import Counter, defaultdict

import pytest

from paperdesk.core.library import Library
from tests.reliability.digests import write_digest

DIGESTS = 200
ENTRIES = 1000

pytestmark = pytest.mark.slow


def plan(seed: int = 9) -> list[list[int]]:
    """Which papers each digest holds: a few new ones, many seen before, and now and
    then the same paper twice in one digest."""
    rng = random.Random(seed)
    digests: list[list[int]] = []
    seen: list[int] = []
    for k in range(DIGESTS):
        repeats = min(len(seen), ENTRIES - 5 - max(100, 900 - 5 * k))
        fresh = ENTRIES - 5 - repeats
        papers = list(range(len(seen), len(seen) + fresh)) + rng.sample(seen, repeats)
        seen.extend(range(len(seen), len(seen) + fresh))
        papers += rng.sample(papers, 5)  # the same paper twice in one digest
        rng.shuffle(papers)
        digests.append(papers)
    return digests


def test_two_hundred_digests_with_repeats(tmp_path):
    digests = plan()
    assert all(len(d) == ENTRIES for d in digests)
    files = [write_digest(tmp_path / f"digest-{k:03d}.txt", papers, day=k, upvotes=k + 1)
             for k, papers in enumerate(digests)]
    sightings = Counter(p for papers in digests for p in papers)
    in_digests: dict[int, set[int]] = defaultdict(set)
    last_upvotes: dict[int, int] = {}
    for k, papers in enumerate(digests):
        for p in papers:
            in_digests[p].add(k)
            last_upvotes[p] = k + 1

    path = tmp_path / "library.sqlite"
    started = time.perf_counter()
    with Library.open(path) as lib:
        for f in files:
            [report] = lib.import_paths([f])
            assert report.status == "imported", report.error
            assert report.entries == ENTRIES
        elapsed = time.perf_counter() - started
        stats = lib.stats()
    print(f"{DIGESTS} digests x {ENTRIES} entries imported in {elapsed:.1f}s")

    assert stats["papers"] == len(sightings)
    assert stats["digests"] == DIGESTS and stats["sightings"] == DIGESTS * ENTRIES

    conn = sqlite3.connect(path)
    try:
        rows = conn.execute(
            "SELECT p.title, p.seen_count, p.upvotes, count(s.id) FROM papers p "
            "JOIN sightings s ON s.paper_id = p.id GROUP BY p.id").fetchall()
        assert conn.execute("SELECT count(*) FROM papers_fts").fetchone()[0] == len(sightings)
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()
    assert len(rows) == len(sightings)
    # Paper i's title starts with its unique code word; map rows back to plan ids.
    from tests.reliability.digests import title

    by_title = {title(i): i for i in sightings}
    for row_title, seen_count, upvotes, count in rows:
        i = by_title[row_title]
        assert count == sightings[i], row_title
        assert seen_count == len(in_digests[i]), row_title
        assert upvotes == last_upvotes[i], row_title

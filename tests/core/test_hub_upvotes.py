"""The Hub's upvotes count everywhere the digests' does: the table's column, show, list
--json, upvotes>N and sorting read one ``upvotes``, the larger of the two (migration 0024)."""

from __future__ import annotations

import sqlite3

from paperdesk.core.db import schema_0002, schema_0024
from paperdesk.core.hub.hub import Hub, Limits
from paperdesk.core.library import Library
from tests.fake_hub import FakeHub, record

DIGEST = ("new\n\nGet trending papers in your email inbox!\n\nSubscribe\n\nDaily Papers\n\n"
          "byAK and the research community\n\n{date}\n\nSparse Mixtures Route Tokens Well\n\n"
          "We route tokens to experts sparsely and measure what it costs.\n\n"
          "  • 4 authors\n·\nNov 3, 2025 {votes}\n")


def _digest(tmp_path, name, date, votes):
    path = tmp_path / name
    path.write_text(DIGEST.format(date=date, votes=votes), encoding="utf-8")
    return path


def test_completed_papers_are_found_sorted_and_shown_by_the_hubs_count(tmp_path, monkeypatch):
    with FakeHub() as hub, Library.open(tmp_path / "lib.sqlite", create=True) as lib:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        lib.import_paths([_digest(tmp_path, "a.txt", "Nov 4, 2025", 40)])
        (pid,) = lib.search("").ids
        assert lib.search("upvotes>100").ids == []
        hub.add(record("2511.01234", "Sparse Mixtures Route Tokens Well",
                       "We route tokens to experts sparsely and measure what it costs.",
                       ["Ada Lovelace"], "2025-11-03", upvotes=512))
        lib.enrich(hub=Hub(Limits(rate=500)))
        assert lib.search("upvotes>100").ids == [pid]
        paper = lib.paper(pid)
        assert paper["upvotes"] == 512 and paper["sources"]["upvotes"]["source"] == "hf"
        # a later digest that printed fewer (it was saved earlier) changes nothing
        lib.import_paths([_digest(tmp_path, "b.txt", "Nov 5, 2025", 45)])
        assert lib.paper(pid)["upvotes"] == 512
        assert lib.search("upvotes>500").ids == [pid]
        # and one that printed more wins
        lib.import_paths([_digest(tmp_path, "c.txt", "Nov 9, 2025", 900)])
        assert lib.paper(pid)["upvotes"] == 900


def test_an_older_library_takes_the_hubs_counts_at_the_upgrade(tmp_path):
    path = tmp_path / "lib.sqlite"
    with Library.open(path, create=True) as lib:
        lib.import_paths([_digest(tmp_path, "a.txt", "Nov 4, 2025", 40)])
    with sqlite3.connect(path) as raw:  # as a library before migration 0024 holds it
        for name in schema_0024.TRIGGER_NAMES:
            raw.execute(f"DROP TRIGGER {name}")
        for trigger in schema_0002.TRIGGERS:
            if trigger.split()[2] in schema_0024.TRIGGER_NAMES:
                raw.execute(trigger)
        raw.execute("ALTER TABLE papers DROP COLUMN seen_at")
        raw.execute("UPDATE papers SET hub_upvotes = 300")
        raw.execute("DELETE FROM _sqlite_migrations WHERE name = '0024_hub_upvotes_and_seen'")
    raw.close()
    with Library.open(path) as lib:
        assert len(lib.search("upvotes>=300").ids) == 1
        assert lib.db.execute("SELECT seen_at FROM papers").fetchall() == [(None,)]
        triggers = {r[0] for r in lib.db.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'trigger'")}
        assert set(schema_0024.TRIGGERS) <= triggers

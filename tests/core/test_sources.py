"""Where a paper's fields came from, as its record lists them."""

from __future__ import annotations

import itertools
import json

from paperdesk.core.model import sources


def _by_rule(row: dict) -> dict:
    """The rule written out field by field: a recorded source wins; any other
    filled field (a 0 of upvotes counts) gets the paper's default source."""
    recorded = json.loads(row["sources"] or "{}")
    default = {"source": "digest" if row["seen_count"] else "bib", "at": row["added"] or ""}
    out = {}
    for name in sources.TRACKED:
        value = row[name]
        if name == "authors":
            value = json.loads(value) if value is not None else None
        if name in recorded:
            out[name] = recorded[name]
        elif value not in (None, "", [], 0) or (name == "upvotes" and value == 0):
            out[name] = default
    return out


def test_sources_follow_the_rule_for_every_mix_of_values():
    recorded = [None, "", "{}", sources.marked(None, ["title", "upvotes"], "user", "2026-02-02"),
                sources.marked(None, ["doi", "authors"], "hf", "2026-03-03")]
    fills = [(None, None, 0, None), ("x", '["A. B."]', 5, "10.1/x"), ("", "[]", 0, "")]
    count = 0
    for rec, (text, authors, upvotes, doi), seen in itertools.product(recorded, fills, (0, 2)):
        row = {name: None for name in sources.TRACKED}
        row.update(title=text, abstract=text, authors=authors, upvotes=upvotes, doi=doi,
                   year=upvotes, sources=rec, seen_count=seen, added="2026-01-01")
        got = sources.of_paper(row)
        assert got == _by_rule(row)
        assert list(got) == list(_by_rule(row))  # in the order of TRACKED
        count += 1
    assert count == 30

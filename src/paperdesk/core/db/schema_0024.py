"""Migration 0024's SQL, as it ran: the Hub's upvotes count, and papers set aside
unread. Never edit.

- ``papers.upvotes`` was the largest count the digests printed for a paper, kept by
  the sightings' triggers; the Hub's count (``hub_upvotes``, completed from Hugging
  Face) lived beside it, so the table, ``show``, ``list --json``, ``upvotes>N`` and
  sorting ignored every completed paper. It is now the larger of the two, and these
  triggers (which replace 0002's) keep it so when sightings come and go.
- ``papers.seen_at``: when triage set the paper aside (S, or "mark the rest as seen")
  without another decision. Today's backlog is every paper in no reading state, without
  stars and not set aside.
"""

from __future__ import annotations


def _stats(paper: str) -> str:
    return f"""
UPDATE papers SET
  upvotes = nullif(max(coalesce((SELECT max(upvotes) FROM sightings WHERE paper_id = {paper}),
                                -1), coalesce(hub_upvotes, -1)), -1),
  seen_count = (SELECT count(DISTINCT digest_id) FROM sightings WHERE paper_id = {paper})
WHERE id = {paper}
;"""


TRIGGERS = [
    "CREATE TRIGGER sightings_stats_insert AFTER INSERT ON sightings BEGIN"
    f"{_stats('new.paper_id')} END",
    "CREATE TRIGGER sightings_stats_update AFTER UPDATE OF paper_id, upvotes ON sightings BEGIN"
    f"{_stats('old.paper_id')}{_stats('new.paper_id')} END",
    "CREATE TRIGGER sightings_stats_delete AFTER DELETE ON sightings BEGIN"
    f"{_stats('old.paper_id')} END",
]
TRIGGER_NAMES = [t.split()[2] for t in TRIGGERS]

STATEMENTS = [
    *(f"DROP TRIGGER IF EXISTS {name}" for name in TRIGGER_NAMES),
    *TRIGGERS,
    "ALTER TABLE papers ADD COLUMN seen_at TEXT",
]
# Run only where some paper has the Hub's count (a library never completed has none).
ANY_HUB_COUNT = "SELECT 1 FROM papers WHERE hub_upvotes IS NOT NULL LIMIT 1"
BACKFILL = "UPDATE papers SET upvotes = hub_upvotes WHERE hub_upvotes > coalesce(upvotes, -1)"

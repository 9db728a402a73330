"""Migration 0010's SQL, as it ran: the papers' momentum and the triggers keeping it.

Momentum is upvotes gained per day across digests: the rise between the lowest
and highest upvotes printed for the paper, over the days between the earliest
and the latest dated digest that printed them (NULL with fewer than two such
digests on different days).
"""

from __future__ import annotations

MOMENTUM_OF = """
SELECT (max(s.upvotes) - min(s.upvotes))
       / (julianday(max(d.digest_date)) - julianday(min(d.digest_date)))
FROM sightings s JOIN digests d ON d.id = s.digest_id
WHERE s.paper_id = {id} AND s.upvotes IS NOT NULL AND d.digest_date IS NOT NULL
HAVING julianday(max(d.digest_date)) > julianday(min(d.digest_date))
"""
_ROW = f"UPDATE papers SET momentum = ({MOMENTUM_OF}) WHERE id = {{id}}"

TRIGGERS = [
    f"""CREATE TRIGGER sightings_momentum_insert AFTER INSERT ON sightings BEGIN
        {_ROW.format(id="new.paper_id")}; END""",
    f"""CREATE TRIGGER sightings_momentum_update AFTER UPDATE OF paper_id, upvotes
        ON sightings BEGIN
        {_ROW.format(id="old.paper_id")}; {_ROW.format(id="new.paper_id")}; END""",
    f"""CREATE TRIGGER sightings_momentum_delete AFTER DELETE ON sightings BEGIN
        {_ROW.format(id="old.paper_id")}; END""",
]

# Momentum of the papers the subquery {papers} selects, in one statement
# (bulk imports, which run with the triggers off, and the migration itself).
BULK = """
UPDATE papers SET momentum = m.v FROM (
  SELECT s.paper_id,
         (max(s.upvotes) - min(s.upvotes))
         / (julianday(max(d.digest_date)) - julianday(min(d.digest_date))) AS v
  FROM sightings s JOIN digests d ON d.id = s.digest_id
  WHERE s.upvotes IS NOT NULL AND d.digest_date IS NOT NULL AND s.paper_id IN ({papers})
  GROUP BY s.paper_id
  HAVING julianday(max(d.digest_date)) > julianday(min(d.digest_date))) AS m
WHERE papers.id = m.paper_id
"""

STATEMENTS = [
    "ALTER TABLE papers ADD COLUMN momentum REAL",
    BULK.format(papers="SELECT paper_id FROM sightings"),
    "CREATE INDEX papers_momentum ON papers(momentum)",
    *TRIGGERS,
]

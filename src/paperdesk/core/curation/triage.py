"""Triage of a digest: its papers in the digest's order, and the evidence for each.

The evidence of a paper is what the digests say about it: in how many digests
it was seen and how its upvotes went from the first sighting that printed them
to the last ("seen in 3 digests, upvotes 5 → 41"), and where it came from ("from the
Hub's daily papers of 2026-12-01", "added by its identifier"). Read only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from paperdesk.core.library import Library


def digest_papers(lib: Library, digest_ids: Sequence[int], *,
                  only_new: bool = False) -> list[int]:
    """The papers of the digests in their order (digest by digest, entry by entry),
    without the trash; ``only_new``: those first seen in these digests."""
    ids = [int(d) for d in digest_ids]
    if not ids:
        return []
    marks = ",".join("?" * len(ids))
    rows = lib.db.execute(
        f"""SELECT s.paper_id, min(s.digest_id * 1000000 + s.position) AS place
            FROM sightings s JOIN papers p ON p.id = s.paper_id
            WHERE s.digest_id IN ({marks}) AND p.deleted_at IS NULL
            GROUP BY s.paper_id ORDER BY place""", ids).fetchall()
    found = [r[0] for r in rows]
    if not only_new:
        return found
    older = {r[0] for r in lib.db.execute(
        f"SELECT DISTINCT paper_id FROM sightings WHERE digest_id NOT IN ({marks}) "
        f"AND digest_id < ?", [*ids, max(ids)])}
    return [pid for pid in found if pid not in older]


def evidence(sightings: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """From ``Library.sightings`` (oldest first): digests seen in and the upvotes'
    path, with the sentence the triage view shows."""
    digests = len({s["digest_id"] for s in sightings})
    votes = [s["upvotes"] for s in sightings if s["upvotes"] is not None]
    first, last = (votes[0], votes[-1]) if votes else (None, None)
    text = f"seen in {digests} digest{'s' if digests != 1 else ''}"
    if votes and first != last:
        text += f", upvotes {first} → {last}"
    elif votes:
        text += f", {last} upvote{'s' if last != 1 else ''}"
    return {"digests": digests, "first_upvotes": first, "last_upvotes": last, "text": text}


_DAILY = "hf-daily-papers-"


def origin(lib: Library, paper_id: int) -> str:
    """Where a paper first came from, as a phrase: a digest (the Hub's daily papers of a
    day, or a file saved by hand), a .bib file, or an identifier that was added."""
    first = lib.db.execute(
        "SELECT d.name, d.digest_date FROM sightings s JOIN digests d ON d.id = s.digest_id "
        "WHERE s.paper_id = ? ORDER BY d.imported_at, d.id LIMIT 1", [paper_id]).fetchone()
    if first is not None:
        name, day = first
        if name.startswith(_DAILY):
            return f"from the Hub's daily papers of {name[len(_DAILY):len(_DAILY) + 10]}"
        return f"from the digest {name}" + (f" ({day})" if day else "")
    row = lib.db.execute("SELECT b.name, json_extract(p.sources, '$.title.source') FROM "
                         "papers p LEFT JOIN bib_files b ON b.id = p.bib_file WHERE p.id = ?",
                         [paper_id]).fetchone()
    if row is None:
        return ""
    if row[0]:
        return f"from {row[0]}"
    return {"arxiv": "added by its identifier (arXiv)", "crossref": "added by its DOI (Crossref)",
            "hf": "added by its identifier (Hugging Face)",
            "link": "added by its identifier (still incomplete)"}.get(row[1] or "", "")


class Triage:
    """``lib.triage``: a digest's papers in its order, and the evidence for each."""

    def __init__(self, lib: Library) -> None:
        self.lib = lib

    def digest_papers(self, digest_ids: Sequence[int], *, only_new: bool = False) -> list[int]:
        return digest_papers(self.lib, digest_ids, only_new=only_new)

    evidence = staticmethod(evidence)

    def origin(self, paper_id: int) -> str:
        return origin(self.lib, paper_id)

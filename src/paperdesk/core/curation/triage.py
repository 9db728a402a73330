"""Triage of a digest: its papers in the digest's order, and the evidence for each.

The evidence of a paper is what the digests say about it: in how many digests
it was seen and how its upvotes went from the first sighting that printed them
to the last ("seen in 3 digests, upvotes 5 → 41"). Read only.
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


class Triage:
    """``lib.triage``: a digest's papers in its order, and the evidence for each."""

    def __init__(self, lib: Library) -> None:
        self.lib = lib

    def digest_papers(self, digest_ids: Sequence[int], *, only_new: bool = False) -> list[int]:
        return digest_papers(self.lib, digest_ids, only_new=only_new)

    evidence = staticmethod(evidence)

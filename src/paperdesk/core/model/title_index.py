"""Finding the paper an imported entry belongs to: the same normalised title and a
matching abstract, in time that does not grow with the papers sharing the title.

Under one title the index keeps the first paper (an entry without an abstract
joins it), the first paper without an abstract (any entry joins it), a dict of
exact abstracts, and the first ``MAX_SIMILAR`` abstracts, which an entry is
compared with in full (a truncated tail, a corrected typo). So an entry costs
at most ``MAX_SIMILAR`` comparisons however many papers carry its title: a
digest of n entries under one title imports in linear time. Real titles are
shared by a handful of papers; past ``MAX_SIMILAR`` of them, an entry whose
abstract is only similar to a later one's becomes a paper of its own, and the
import's duplicate check puts the two in front of the user.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from paperdesk.core.model.text import ABSTRACT_MATCH, abstract_key, key_similarity

MAX_SIMILAR = 16  # abstracts under one title that an entry is compared with in full


@dataclass
class _Title:
    first: int
    empty: int | None = None  # the first paper without an abstract
    exact: dict[str, int] = field(default_factory=dict)  # abstract key -> first paper
    similar: list[tuple[int, str]] = field(default_factory=list)  # (paper, abstract key)
    # The one paper added whose abstract is not keyed yet: most titles are never
    # looked up again, and normalising every abstract was most of matching's time.
    pending: tuple[int, str] | None = None

    def keyed(self) -> _Title:
        if self.pending is not None:
            (paper_id, abstract), self.pending = self.pending, None
            self.file(paper_id, abstract_key(abstract))
        return self

    def file(self, paper_id: int, akey: str) -> None:
        if akey not in self.exact:
            self.exact[akey] = paper_id
            if len(self.similar) < MAX_SIMILAR:
                self.similar.append((paper_id, akey))


class TitleIndex:
    """Papers by title key; ``find`` gives the earliest added paper that matches, as
    comparing the entry with every paper of its title in order would."""

    def __init__(self) -> None:
        self.titles: dict[str, _Title] = {}

    def add(self, key: str, paper_id: int, abstract: str) -> None:
        """Add a paper; papers are added in the order ``find`` should prefer them."""
        title = self.titles.get(key)
        if title is None:
            title = self.titles[key] = _Title(paper_id)
            if abstract.strip():
                title.pending = (paper_id, abstract)
                return
        if not abstract.strip():
            if title.empty is None:
                title.empty = paper_id
            return
        title.keyed().file(paper_id, abstract_key(abstract))

    def find(self, key: str, abstract: str) -> int | None:
        title = self.titles.get(key)
        if title is None:
            return None
        if not abstract.strip():
            return title.first
        title.keyed()
        akey = abstract_key(abstract)
        found = [pid for pid in (title.empty, title.exact.get(akey)) if pid is not None]
        best = min(found) if found else None
        for pid, other in title.similar:
            if best is not None and pid > best:
                break
            if key_similarity(akey, other, ABSTRACT_MATCH) >= ABSTRACT_MATCH:
                return pid
        return best

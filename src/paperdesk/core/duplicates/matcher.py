"""Whether an incoming paper is one the library already holds: one rule for the
digest and .bib importers and the duplicate finder.

The same arXiv id (whatever its version, whatever its case) or the same DOI
(whatever its case) is the same paper; so is the same normalised title
(``text.title_key``) with a matching abstract, or a missing one. Titles are
looked up in a ``TitleIndex``, so an entry costs a bounded number of abstract
comparisons however many papers share its title.

``judge_many`` weighs pairs of papers of the library whose titles came close, for the
duplicate finder (``duplicates.py``): the same rule, and the tiers below it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from paperdesk.core.db.database import Database, select_in
from paperdesk.core.model import text
from paperdesk.core.model.text import ABSTRACT_MATCH, TITLE_FLOOR, abstract_key, key_similarity

_ARXIV_VERSION = re.compile(r"v\d+$")
LIKELY_TITLE = 90.0     # titles this alike, with agreeing abstracts: likely the same
NEAR_SAME_TITLE = 95.0  # enough on its own (for "possible") when an abstract is missing


def arxiv_key(arxiv_id: str | None) -> str:
    """An arXiv id as compared: lower case, without its version (``2401.1v2`` -> ``2401.1``)."""
    return _ARXIV_VERSION.sub("", (arxiv_id or "").strip().lower())


def doi_key(doi: str | None) -> str:
    return (doi or "").strip().lower()


class PaperMatcher:
    """Finds the paper an incoming entry belongs to, among the library's papers and
    those added during the same import (``add``).

    Made for one batch: it reads the papers under the batch's title keys, and,
    when ``identifiers`` is set, every paper's arXiv id and DOI (the oldest paper
    wins when several share one).
    """

    def __init__(self, db: Database, title_keys: Iterable[str], *,
                 identifiers: bool = False) -> None:
        self.by_title = TitleIndex()
        self.by_arxiv: dict[str, int] = {}
        self.by_doi: dict[str, int] = {}
        keys = sorted({k for k in title_keys if k})
        for pid, key, abstract in select_in(
                db, "SELECT id, title_key, abstract FROM papers WHERE title_key IN ({marks}) "
                    "ORDER BY id", keys):
            self.by_title.add(key, pid, abstract)
        if identifiers:
            for pid, arxiv, doi in db.execute(
                    "SELECT id, arxiv_id, doi FROM papers WHERE arxiv_id IS NOT NULL "
                    "OR doi IS NOT NULL ORDER BY id DESC"):
                if arxiv:
                    self.by_arxiv[arxiv_key(arxiv)] = pid
                if doi:
                    self.by_doi[doi_key(doi)] = pid

    def find(self, key: str, abstract: str, arxiv_id: str | None = None,
             doi: str | None = None) -> int | None:
        """The id of the paper this one is, or None for a new paper."""
        if arxiv_id and arxiv_key(arxiv_id) in self.by_arxiv:
            return self.by_arxiv[arxiv_key(arxiv_id)]
        if doi and doi_key(doi) in self.by_doi:
            return self.by_doi[doi_key(doi)]
        return self.by_title.find(key, abstract) if key else None

    def add(self, key: str, pid: int, abstract: str, arxiv_id: str | None = None,
            doi: str | None = None) -> None:
        """A paper the batch adds: later entries can match it."""
        if arxiv_id:
            self.by_arxiv.setdefault(arxiv_key(arxiv_id), pid)
        if doi:
            self.by_doi.setdefault(doi_key(doi), pid)
        self.by_title.add(key, pid, abstract)


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


# -- judging one pair ------------------------------------------------------------

def identifier_key(value: str | None, *, arxiv: bool) -> str:
    """An identifier as the import matcher compares it."""
    return arxiv_key(value) if arxiv else doi_key(value)


def _context(a: dict[str, Any], b: dict[str, Any]) -> tuple[int, list[str]]:
    """Evidence from dates, author counts and organisations; how many disagree."""
    conflicts, said = 0, []
    if a["published"] and b["published"]:
        if a["published"] == b["published"]:
            said.append("same date")
        elif (a["year_inferred"] or b["year_inferred"]) and \
                a["published"][4:] == b["published"][4:]:
            said.append("same day (a year was inferred)")
        else:
            conflicts += 1
            said.append(f"dates {a['published']} vs {b['published']}")
    if a["author_count"] is not None and b["author_count"] is not None:
        said.append(f"author counts {a['author_count']} vs {b['author_count']}")
        conflicts += a["author_count"] != b["author_count"]
    if a["organization"] and b["organization"]:
        if a["organization"].casefold() == b["organization"].casefold():
            said.append(f"same organisation {a['organization']}")
        else:
            conflicts += 1
            said.append(f"organisations {a['organization']} vs {b['organization']}")
    return conflicts, said


Verdict = tuple[str, int, list[str]]  # (tier, score 0-100, evidence)


def judge_many(pairs: Sequence[tuple[dict[str, Any], dict[str, Any]]],
               keys: dict[int, str] | None = None) -> list[Verdict | None]:
    """(tier, score 0-100, evidence) for each pair of papers, or None when they differ.

    Each paper holds id, title_key, abstract, published, year_inferred, author_count,
    organization, arxiv_id and doi; ``keys`` keeps each paper's abstract key
    (``abstract_key``) for the other pairs it is in. The abstracts of the pairs whose
    titles come close are compared together (``text.key_similarities``: many at once,
    on every core).
    """
    verdicts: list[Verdict | None] = []
    titles: list[float | None] = []  # a pair's title similarity, while undecided
    abstracts: list[float | None] = [None] * len(pairs)
    asked: dict[float, list[int]] = {}  # the pairs whose abstracts are compared, by cutoff
    for n, (a, b) in enumerate(pairs):
        t, verdict = _by_titles(a, b)
        verdicts.append(verdict)
        titles.append(t)
        if t is None or not (a["abstract"].strip() and b["abstract"].strip()):
            continue
        if a["abstract"] == b["abstract"]:
            abstracts[n] = 100.0
        else:
            # Titles that differ make a pair only with abstracts that match: a similarity
            # below ABSTRACT_MATCH need not be worked out exactly (it comes back as 0).
            same_title = a["title_key"] == b["title_key"]
            asked.setdefault(0.0 if same_title else ABSTRACT_MATCH, []).append(n)
    for cutoff, ns in asked.items():
        found = text.key_similarities(
            [(_abstract_key(pairs[n][0], keys), _abstract_key(pairs[n][1], keys)) for n in ns],
            cutoff)
        for n, similarity in zip(ns, found, strict=True):
            abstracts[n] = similarity
    for n, (a, b) in enumerate(pairs):
        t = titles[n]
        if t is not None:
            verdicts[n] = _weigh(a, b, t, abstracts[n])
    return verdicts


def _by_titles(a: dict[str, Any], b: dict[str, Any]) -> tuple[float | None, Verdict | None]:
    """(title similarity, None) when the abstracts are to be weighed, else (None, the
    verdict): the same identifier, identifiers that differ, no title, titles apart."""
    differ = False
    for name, label, arxiv in (("arxiv_id", "arXiv id", True), ("doi", "DOI", False)):
        x, y = identifier_key(a.get(name), arxiv=arxiv), identifier_key(b.get(name), arxiv=arxiv)
        if x and x == y:
            return None, ("certain", 100, [f"same {label} {a[name]}", *_context(a, b)[1]])
        differ = differ or bool(x and y)
    if differ or not a["title_key"] or not b["title_key"]:  # no title: nothing to compare
        return None, None
    same_title = a["title_key"] == b["title_key"]
    from rapidfuzz import fuzz  # loaded only when papers are compared

    t = 100.0 if same_title else fuzz.ratio(a["title_key"], b["title_key"])
    if t < TITLE_FLOOR or (not same_title and _numbers(a["title_key"]) !=
                           _numbers(b["title_key"])):
        return None, None  # different numbers: another version or part ("Llama 2", "Llama 3")
    return t, None


def _weigh(a: dict[str, Any], b: dict[str, Any], t: float, s: float | None) -> Verdict | None:
    """The verdict on two papers whose titles came within the floor (``t``), from their
    abstracts' similarity ``s`` (None: one is missing) and their dates and names."""
    same_title = a["title_key"] == b["title_key"]
    conflicts, said = _context(a, b)
    evidence = [f"title {t:.0f}%",
                f"abstract {s:.0f}%" if s is not None else "one abstract missing", *said]
    tier: str | None
    if same_title:
        tier = "certain" if s is None or s >= ABSTRACT_MATCH else "possible"
        if tier == "possible":
            evidence.insert(0, "same title, different abstracts")
    else:
        if s is None:
            tier = "possible" if t >= NEAR_SAME_TITLE else None
        elif s >= ABSTRACT_MATCH:
            tier = "likely" if t >= LIKELY_TITLE else "possible"
        else:
            tier = None
        for _ in range(conflicts):
            tier = {"likely": "possible"}.get(tier or "")
    if tier is None:
        return None
    score = (t + s) / 2 if s is not None else t * 0.9
    return tier, max(0, min(100, round(score - 10 * conflicts))), evidence


# The numbers of a title key (cached: a title is in several pairs).
_numbers = functools.lru_cache(maxsize=1 << 16)(text.title_numbers)


def _abstract_key(paper: dict[str, Any], keys: dict[int, str] | None) -> str:
    """The paper's abstract key, made once for all the pairs it is in (with ``keys``)."""
    if keys is None:
        return text.abstract_key(paper["abstract"])
    key = keys.get(paper["id"])
    if key is None:
        key = keys[paper["id"]] = text.abstract_key(paper["abstract"])
    return key

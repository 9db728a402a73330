"""Finding papers that are the same work, and saying why.

A scan never compares all pairs. Candidate pairs come from blocking (``blocking.py``:
rarest title words, neighbours in title order) and equal identifiers; the title
pairs that come close are judged on the whole record:

- certain: the same arXiv id or DOI, or the same normalised title with a
  matching (or missing) abstract, as import itself would merge;
- likely: titles at least 90% alike and abstracts that agree;
- possible: weaker agreement, one abstract missing beside a near-identical
  title, or the same title over clearly different abstracts (for review).

Different dates, author counts or organisations each lower a pair by a tier.
Titles with different numbers ("Llama 2", "Llama 3") are different works.
Titles that share most words over different abstracts ("Scaling Laws for
Neural Machine Translation" vs "... Multilingual ...") are not grouped at all.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from paperdesk.core.db import candidates_table
from paperdesk.core.db import changes as ch
from paperdesk.core.db.database import Database, chunks, marks
from paperdesk.core.duplicates import blocking
from paperdesk.core.duplicates import merge as merging
from paperdesk.core.duplicates.matcher import identifier_key, judge_many
from paperdesk.core.model.jobs import CancelFlag, Progress, check_cancel, no_progress

if TYPE_CHECKING:
    from paperdesk.core.library import Library

TIERS = ("certain", "likely", "possible")
TITLE_FLOOR = blocking.TITLE_FLOOR  # titles less alike than this are different works
# From this many new papers (or a quarter of the library), an import's check compares
# every title as a scan does (linear in the library), not each new paper by queries.
IMPORT_PROBE_LIMIT = 10_000


@dataclass
class Group:
    """Papers that may be one work. ``ids[0]`` is the suggested keeper."""

    ids: list[int]
    tier: str
    score: int
    evidence: list[str]

    def to_json(self) -> dict[str, Any]:
        return {"ids": list(self.ids), "tier": self.tier, "score": self.score,
                "evidence": list(self.evidence)}


@dataclass(frozen=True)
class ScanResult(Sequence[Group]):
    """The groups a scan found (the result reads as their list) and its ``changes``:
    the open groups it stored for review."""

    groups: list[Group]
    changes: ch.Changes = ch.NOTHING
    candidates: int = 0  # title pairs compared (blocks and neighbours)

    def __getitem__(self, index):
        return self.groups[index]

    def __len__(self) -> int:
        return len(self.groups)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, list):
            return self.groups == other
        return super().__eq__(other)


@dataclass
class Pair:
    a: int
    b: int
    tier: str
    score: int
    evidence: list[str]


# -- reading the library ---------------------------------------------------------

_DETAIL = ("id, title_key, abstract, published, year_inferred, author_count, organization, "
           "arxiv_id, doi, rating, status, seen_count, deleted_at")


def _titles(db: Database) -> tuple[list[int], list[str]]:
    """Ids and normalised titles of the papers not in the trash, sorted by title."""
    trash = {r[0] for r in db.execute("SELECT id FROM papers WHERE deleted_at IS NOT NULL")}
    rows = db.execute("SELECT id, title_key FROM papers INDEXED BY papers_title_key "
                      "ORDER BY title_key, id").fetchall()
    if trash:
        rows = [r for r in rows if r[0] not in trash]
    return [r[0] for r in rows], [r[1] for r in rows]


def details(db: Database, ids: Iterable[int]) -> dict[int, dict[str, Any]]:
    out: dict[int, dict[str, Any]] = {}
    ids = sorted(set(ids))
    for part in chunks(ids):
        cursor = db.execute(f"SELECT {_DETAIL} FROM papers WHERE id IN ({marks(len(part))})",
                            part)
        names = [d[0] for d in cursor.description]
        for row in cursor:
            out[row[0]] = dict(zip(names, row, strict=True))
    return out


def _identifier_pairs(db: Database, among: Sequence[int] | None = None) -> set[tuple[int, int]]:
    """Papers sharing an arXiv id or DOI (``among``: only pairs involving these)."""
    pairs: set[tuple[int, int]] = set()
    for column in ("arxiv_id", "doi"):
        groups: dict[str, list[int]] = {}
        for pid, value in db.execute(f"SELECT id, {column} FROM papers WHERE {column} IS NOT "
                                     f"NULL AND {column} != '' AND deleted_at IS NULL"):
            groups.setdefault(identifier_key(value, arxiv=column == "arxiv_id"), []).append(pid)
        wanted = None if among is None else set(among)
        for members in groups.values():
            for x in members:
                for y in members:
                    if x < y and (wanted is None or x in wanted or y in wanted):
                        pairs.add((x, y))
    return pairs


def _different(db: Database) -> set[tuple[int, int]]:
    return {(a, b) for a, b in db.execute("SELECT paper_a, paper_b FROM not_duplicates")}


def _keeper_order(paper: dict[str, Any]) -> tuple[Any, ...]:
    own = paper["rating"] > 0 or paper["status"] != "unread"
    return (not own, -(paper["seen_count"] or 0), paper["id"])


# -- from pairs to groups --------------------------------------------------------

class _Sets:
    def __init__(self) -> None:
        self.parent: dict[int, int] = {}

    def find(self, x: int) -> int:
        root = x
        while self.parent.get(root, root) != root:
            root = self.parent[root]
        while self.parent.get(x, x) != root:
            self.parent[x], x = root, self.parent[x]
        return root

    def join(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        self.parent.setdefault(ra, ra)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)
            self.parent.setdefault(min(ra, rb), min(ra, rb))

    def groups(self) -> list[list[int]]:
        out: dict[int, list[int]] = {}
        for x in self.parent:
            out.setdefault(self.find(x), []).append(x)
        return [sorted(m) for m in out.values() if len(m) > 1]


def _rank(tier: str) -> int:
    return TIERS.index(tier)


def _components(pairs: list[Pair]) -> list[tuple[list[int], list[Pair]]]:
    sets = _Sets()
    for p in pairs:
        sets.join(p.a, p.b)
    edges: dict[int, list[Pair]] = {}
    for p in pairs:
        edges.setdefault(sets.find(p.a), []).append(p)
    return [(members, edges[sets.find(members[0])]) for members in sets.groups()]


def build_groups(pairs: list[Pair], papers: dict[int, dict[str, Any]]) -> list[Group]:
    """Certain pairs make certain groups; the other pairs group around their keepers."""

    def make(members: list[int], edges: list[Pair]) -> Group:
        weakest = max(edges, key=lambda p: (_rank(p.tier), -p.score))
        keeper = min(members, key=lambda m: _keeper_order(papers[m]))
        evidence = list(weakest.evidence)
        if len(members) > 2:
            evidence.append(f"{len(members)} papers (weakest pair {weakest.a} & {weakest.b})")
        return Group([keeper, *(m for m in members if m != keeper)], weakest.tier,
                     weakest.score, evidence)

    out: list[Group] = []
    keeper_of: dict[int, int] = {}
    for members, edges in _components([p for p in pairs if p.tier == "certain"]):
        group = make(members, edges)
        out.append(group)
        keeper_of.update(dict.fromkeys(members, group.ids[0]))
    rest = []
    for p in pairs:
        a, b = keeper_of.get(p.a, p.a), keeper_of.get(p.b, p.b)
        if p.tier != "certain" and a != b:
            rest.append(Pair(min(a, b), max(a, b), p.tier, p.score, p.evidence))
    out.extend(make(members, edges) for members, edges in _components(rest))
    out.sort(key=lambda g: (_rank(g.tier), -g.score, g.ids[0]))
    return out


def judge_pairs(db: Database, pairs: Iterable[tuple[int, int]],
                cancel: CancelFlag | None = None) -> tuple[list[Pair], dict[int, dict]]:
    different = _different(db)
    pairs = [p for p in pairs if p not in different]
    papers = details(db, (x for p in pairs for x in p))
    judged: list[Pair] = []
    # Each paper's abstract key is made once, and let go after the last batch it is in.
    keys: dict[int, str] = {}
    last = {x: n for n, p in enumerate(pairs) for x in p}
    for start in range(0, len(pairs), _BATCH):
        check_cancel(cancel)
        batch = [(a, b) for a, b in pairs[start:start + _BATCH]
                 if a in papers and b in papers
                 and not (papers[a]["deleted_at"] or papers[b]["deleted_at"])]
        verdicts = judge_many([(papers[a], papers[b]) for a, b in batch], keys)
        judged += [Pair(a, b, *v) for (a, b), v in zip(batch, verdicts, strict=True) if v]
        for pair in pairs[start:start + _BATCH]:
            for x in pair:
                if last[x] < start + _BATCH:
                    keys.pop(x, None)
    return judged, papers


_BATCH = 4096  # pairs judged together (their abstracts compared in one call)


# -- the two entry points --------------------------------------------------------

def find_groups(db: Database, probe_ids: Sequence[int] | None = None, progress: Progress =
                no_progress, cancel: CancelFlag | None = None, counts: dict | None = None
                ) -> list[Group]:
    """Candidate groups, or those involving ``probe_ids`` (``counts``: blocking's)."""
    progress(0.0, "Reading titles")
    if probe_ids is None or len(probe_ids) > min(IMPORT_PROBE_LIMIT, db.execute(
            "SELECT count(*) FROM papers").fetchone()[0] // 4):
        ids, keys = _titles(db)
        check_cancel(cancel)
        progress(0.1, "Comparing titles")
        found = blocking.id_pairs(ids, keys, probe_ids, cancel, counts)
    else:
        found = blocking.probe_pairs(db, probe_ids, cancel)
    found |= _identifier_pairs(db, probe_ids)
    progress(0.7, f"Weighing {len(found)} candidate pairs")
    pairs, papers = judge_pairs(db, sorted(found), cancel)
    progress(0.95, "Grouping")
    return build_groups(pairs, papers)


def check_new(lib: Library, paper_ids: Sequence[int],
              cancel: CancelFlag | None = None) -> list[Group]:
    """Groups that newly imported papers form with the library (and each other)."""
    if not paper_ids:
        return []
    return find_groups(lib.db, list(paper_ids), cancel=cancel)


def remember_candidates(db: Database, groups: Iterable[Group], *, replace: bool) -> None:
    """Store the papers of ``groups`` in duplicate_candidates. Call inside a write."""
    if replace:
        candidates_table.clear(db)
    candidates_table.add(db, [pid for g in groups for pid in g.ids])


def note_new(lib: Library, paper_ids: Sequence[int], cancel: CancelFlag | None = None) -> int:
    """At import, inside its write: flag new papers that look like others; how many
    (whatever their number: a first import of a huge file is checked as a scan)."""
    groups = check_new(lib, paper_ids, cancel)
    remember_candidates(lib.db, groups, replace=False)
    new = set(paper_ids)
    return len({pid for g in groups for pid in g.ids if pid in new})


class Duplicates:
    """``lib.duplicates``: scan, merge, unmerge, not-duplicates, history."""

    def __init__(self, lib: Library) -> None:
        self.lib = lib

    def scan(self, *, tier: str | None = None, progress: Progress = no_progress,
             cancel: CancelFlag | None = None) -> ScanResult:
        if tier is not None and tier not in TIERS:
            raise merging.DuplicateError(f"unknown tier {tier!r}; choose from {', '.join(TIERS)}")
        counts: dict[str, int] = {}
        groups = find_groups(self.lib.db, None, progress, cancel, counts)
        check_cancel(cancel)
        ids = {pid for g in groups for pid in g.ids}
        with self.lib.write("Scan for duplicates", {ch.CANDIDATES}) as w:
            ids |= {r[0] for r in self.lib.db.execute("SELECT paper_id FROM duplicate_candidates")}
            remember_candidates(self.lib.db, groups, replace=True)
            w.paper_ids = ids
        progress(1.0, f"{len(groups)} groups")
        found = [g for g in groups if tier is None or g.tier == tier]
        return ScanResult(found, w.changes or ch.NOTHING, counts.get("candidates", 0))

    def merge(self, keep_id: int, other_ids: Iterable[int],
              choices: dict[str, int] | None = None) -> ch.Changes:
        return merging.merge(self.lib, keep_id, list(other_ids), choices)

    def merge_all_certain(self, progress: Progress = no_progress,
                          cancel: CancelFlag | None = None) -> ch.Changes:
        groups = find_groups(self.lib.db, None, lambda f, m: progress(f * 0.5, m), cancel)
        certain = [g for g in groups if g.tier == "certain"]
        return merging.merge_groups(self.lib, certain,
                                  lambda f, m: progress(0.5 + f * 0.5, m), cancel)

    def merged_row(self, rows: dict[int, dict[str, Any]], keep_id: int,
                   other_ids: Sequence[int], choices: dict[str, int]) -> dict[str, Any]:
        """The kept paper's stored row (``rows``: ``lib.browse.stored_rows``) as a merge
        with ``choices`` would write it: what the merge dialog previews."""
        return merging.merged_row(rows, keep_id, other_ids, choices)

    def unmerge(self, merge_id: int) -> ch.Changes:
        return merging.unmerge(self.lib, merge_id)

    def latest_merge_of(self, paper_id: int) -> int:
        return merging.latest_merge_of(self.lib, paper_id)

    def history(self) -> list[dict[str, Any]]:
        return merging.history(self.lib)

    def mark_different(self, ids: Iterable[int]) -> ch.Changes:
        return merging.mark_different(self.lib, list(ids))

"""Completing papers from the Hugging Face Hub: ``lib.enrich(...)``.

For each paper that still lacks an arXiv id or its authors, the Hub is searched
by title (``/api/papers/search``); a candidate is taken only when its
normalised title is the paper's and its abstract agrees (a look-alike with a
different abstract is never taken, and a paper without an abstract to compare
is left alone as "unsure"). Its record (``/api/papers/{id}``) then fills the
arXiv id, the authors in order, the exact date (replacing an inferred year),
the GitHub repository, the project page and the current upvotes; each field
records that it came from the Hub and when. A value the user typed is never
overwritten, nor are names or dates a .bib file gave.

The questions go out on a few threads at a bounded rate (``core/hub/hub.py``); the
answers are written at the end in one undoable edit, so a run is undone as a
whole. A malformed record in a search's answer is left out with a warning
and fails only a paper of its title (it may have been that paper's), never
the others it is listed with. A failure stops nothing but its paper, except
when the Hub cannot be reached at all: then the run stops and what was already
found is still written.
Papers the Hub does not know stay untouched and are asked about again next run.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from paperdesk.core.bibtex.citekey import refresh
from paperdesk.core.db import changes as ch
from paperdesk.core.db import papers_table
from paperdesk.core.db.database import Database, select_in
from paperdesk.core.hub.hub import Broken, Hub, HubError, HubPaper, HubUnavailable
from paperdesk.core.model import identifiers
from paperdesk.core.model.clock import now
from paperdesk.core.model.errors import Cancelled
from paperdesk.core.model.jobs import CancelFlag, Progress, no_progress
from paperdesk.core.model.sources import marked, parse
from paperdesk.core.model.text import ABSTRACT_MATCH, abstract_similarity, title_key

if TYPE_CHECKING:
    from paperdesk.core.library import Library

# Papers that still lack something the Hub can give.
MISSING = ("p.deleted_at IS NULL AND (p.arxiv_id IS NULL OR p.authors IS NULL "
           "OR p.authors = '[]')")


@dataclass(frozen=True)
class EnrichResult(ch.Result):
    """What one run did: ids completed; (id, title, why) for the rest."""

    asked: int
    completed: list[int]
    not_found: list[tuple[int, str]]
    unsure: list[tuple[int, str, str]]
    failed: list[tuple[int, str, str]]
    stopped: str | None
    cancelled: bool
    requests: int
    rekeyed: dict[int, tuple[str, str]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)  # fields refused, records left out

    def summary(self) -> str:
        parts = [f"completed {len(self.completed)} of {self.asked} papers"]
        if self.not_found:
            parts.append(f"{len(self.not_found)} not found on the Hub")
        if self.unsure:
            parts.append(f"{len(self.unsure)} left alone (unsure)")
        if self.failed:
            parts.append(f"{len(self.failed)} failed")
        if self.stopped and self.requests == 0 and len(parts) == 1:  # offline: one line
            return (f"{self.stopped}; {self.asked} paper{'s' * (self.asked != 1)} "
                    "left as they were")
        unasked = self.asked - len(self.completed) - len(self.not_found) - len(
            self.unsure) - len(self.failed)
        if self.stopped and unasked:
            parts.append(f"{unasked} without an answer")
        text = "; ".join(parts) + f" ({self.requests} requests)"
        if self.stopped:
            text += f"; stopped: {self.stopped}"
        if self.cancelled:
            text += "; cancelled"
        return text


@dataclass
class _Outcome:
    pid: int
    title: str
    record: HubPaper | None = None
    verdict: str = "skipped"   # completed, not_found, unsure, failed, skipped
    why: str = ""
    warnings: list[str] = field(default_factory=list)  # records of its search left out


def candidates(lib: Library, ids: Iterable[int] | None = None) -> list[dict[str, Any]]:
    """The papers (of ``ids``, else all) that still lack an arXiv id or authors."""
    cols = "p.id, p.title, p.abstract, p.arxiv_id"
    if ids is None:
        rows = lib.db.execute(f"SELECT {cols} FROM papers p WHERE {MISSING} ORDER BY p.id")
        return [dict(zip(("id", "title", "abstract", "arxiv_id"), r, strict=True))
                for r in rows]
    out: list[dict[str, Any]] = []
    chosen = list(dict.fromkeys(int(i) for i in ids))
    out.extend(dict(zip(("id", "title", "abstract", "arxiv_id"), r, strict=True))
               for r in select_in(lib.db, f"SELECT {cols} FROM papers p WHERE {MISSING} "
                                  "AND p.id IN ({marks}) ORDER BY p.id", chosen))
    return out


def choose(paper: dict[str, Any], found: Sequence[HubPaper]) -> tuple[HubPaper | None, str]:
    """The Hub paper that is this paper, or None with the reason."""
    key = title_key(paper["title"])
    same_title = [c for c in found if title_key(c.title) == key]
    if not same_title:
        return None, "not_found"
    if not (paper.get("abstract") or "").strip():
        return None, "no abstract to compare with the Hub's"
    agreeing = [c for c in same_title if c.abstract.strip() and abstract_similarity(
        paper["abstract"], c.abstract) >= ABSTRACT_MATCH]
    if not agreeing:
        return None, "a paper of the same title on the Hub has a different abstract"
    if len({c.arxiv_id for c in agreeing}) > 1:
        return None, "more than one paper on the Hub matches"
    return agreeing[0], ""


def _ask(hub: Hub, paper: dict[str, Any]) -> _Outcome:
    out = _Outcome(paper["id"], paper["title"])
    if paper.get("arxiv_id"):
        record = hub.paper(paper["arxiv_id"])
        if record is None:
            out.verdict = "not_found"
            return out
    else:
        found, broken = hub.search(paper["title"])
        out.warnings = [_left_out(b) for b in broken]
        key = title_key(paper["title"])
        mine = [b for b in broken if b.title and title_key(b.title) == key]
        if mine:  # the record that may be this paper's is unreadable: this paper fails
            out.verdict = "failed"
            out.why = (f"search {paper['title'][:40]!r}: the Hub's answer is not the JSON it "
                       f"should be (its record {mine[0].name} of this title: {mine[0].why})")
            return out
        chosen, why = choose(paper, found)
        if chosen is None:
            out.verdict = "not_found" if why == "not_found" else "unsure"
            out.why = why
            return out
        # an id that is not one never goes into a request (it is refused below)
        record = (hub.paper(chosen.arxiv_id) if identifiers.valid("arxiv_id", chosen.arxiv_id)
                  else None) or chosen
    refused = record_problems(record)
    if refused:  # an identifier that is not one: nothing of the record is taken
        out.verdict, out.why = "failed", "; ".join(refused)
        return out
    out.record, out.verdict = record, "completed"
    return out


def _left_out(broken: Broken) -> str:
    """The warning for a malformed record of a search, the same whichever search listed
    it (many may: the run's warnings say it once)."""
    if broken.name:
        return f"the Hub's record {broken.name} is malformed ({broken.why}); left out"
    return f"a Hub record without an id or a title is malformed ({broken.why}); left out"


def record_problems(record: HubPaper) -> list[str]:
    """Why a Hub record is refused: each of its identifiers that does not match its
    grammar (``core/model/identifiers.py``); none for a good record."""
    found = identifiers.problems({"arxiv_id": record.arxiv_id, "github": record.github,
                                  "project_page": record.project_page})
    return [f"the Hub's {why}; refused" for why in found.values()]


def ask_hub(papers: Sequence[dict[str, Any]], hub: Hub, progress: Progress = no_progress,
            cancel: CancelFlag | None = None) -> tuple[list[_Outcome], str | None, bool]:
    """Ask about every paper on the hub's threads; (outcomes, why stopped, cancelled)."""
    stop = threading.Event()
    stopped: list[str] = []
    done = [0]
    lock = threading.Lock()

    def one(paper: dict[str, Any]) -> _Outcome:
        if stop.is_set() or (cancel is not None and cancel.is_set()):
            return _Outcome(paper["id"], paper["title"])
        try:
            out = _ask(hub, paper)
        except Cancelled:
            return _Outcome(paper["id"], paper["title"])
        except HubUnavailable as exc:  # the run's fault, not the paper's: said once
            with lock:
                if not stopped:
                    stopped.append(str(exc))
            stop.set()
            return _Outcome(paper["id"], paper["title"])
        except HubError as exc:
            out = _Outcome(paper["id"], paper["title"], verdict="failed", why=str(exc))
        except Exception as exc:  # a surprise costs its paper, never the run
            out = _Outcome(paper["id"], paper["title"], verdict="failed",
                           why=f"unexpected {type(exc).__name__}: {str(exc)[:100]}")
        with lock:
            done[0] += 1
            progress(done[0] / max(1, len(papers)),
                     f"Asked the Hub about {done[0]} of {len(papers)} papers")
        return out

    with ThreadPoolExecutor(max_workers=max(1, hub.limits.workers),
                            thread_name_prefix="hub") as pool:
        try:
            outcomes = list(pool.map(one, papers))
        except BaseException:  # Ctrl-C: every thread's wait ends within a tenth of a second
            hub.stop()
            pool.shutdown(wait=True, cancel_futures=True)
            raise
    cancelled = cancel is not None and cancel.is_set()
    return outcomes, (stopped[0] if stopped else None), cancelled


def _keeps(sources: dict[str, Any], name: str, *, bib_too: bool = False) -> bool:
    """Is the field's current value one the Hub must not replace?"""
    source = sources.get(name, {}).get("source")
    return source == "user" or (bib_too and source == "bib")


def apply(db: Database, pid: int, record: HubPaper, stamp: str, source: str = "hf") -> bool:
    """Fill one paper from its Hub record (inside the caller's write); True if changed.
    A record with an identifier that is not one (``record_problems``) changes nothing.
    ``source``: who gave the record (the Hub; arXiv for a followed listing)."""
    if record_problems(record):
        return False
    cursor = db.execute("SELECT * FROM papers WHERE id = ?", [pid])
    row = dict(zip([d[0] for d in cursor.description], cursor.fetchone(), strict=True))
    sources = parse(row["sources"])
    have_authors = json.loads(row["authors"] or "[]")
    new: dict[str, Any] = {}
    if record.arxiv_id and row["arxiv_id"] != record.arxiv_id and not (
            row["arxiv_id"] and _keeps(sources, "arxiv_id", bib_too=True)):
        new["arxiv_id"] = record.arxiv_id
    if record.authors and record.authors != have_authors and not (
            have_authors and _keeps(sources, "authors", bib_too=True)):
        new["authors"] = json.dumps(record.authors, ensure_ascii=False)
        new["author_count"] = len(record.authors)
    if record.published and not _keeps(sources, "year") and not (
            row["published"] and _keeps(sources, "published", bib_too=True)) and (
            row["published"] != record.published or row["year_inferred"]):
        new["published"] = record.published
        new["year"] = int(record.published[:4])
        new["year_inferred"] = 0
    for name, value in (("github", record.github), ("project_page", record.project_page)):
        if value and row[name] != value and not _keeps(sources, name):
            new[name] = value
    if record.organization and not row["organization"]:
        new["organization"] = record.organization
        new["organization_handle"] = record.organization_handle
    if record.upvotes is not None and row["hub_upvotes"] != record.upvotes:
        new["hub_upvotes"] = record.upvotes
        # the count the table, show and upvotes>N read: the larger of the digests'
        # and the Hub's (as the sightings' triggers keep it, migration 0024)
        if record.upvotes > (row["upvotes"] if row["upvotes"] is not None else -1):
            new["upvotes"] = record.upvotes
    if not new:
        return False
    fields = [n for n in new if n not in ("author_count", "year_inferred",
                                          "organization_handle", "upvotes")]
    fields = [("upvotes" if n == "hub_upvotes" else n) for n in fields]
    new["sources"] = marked(row["sources"], fields, source, stamp)
    new["modified"] = stamp
    papers_table.set_columns(db, pid, new)
    return True


def write_outcomes(lib: Library, outcomes: Sequence[_Outcome], label: str,
                   result_of: Any) -> ch.Changes:
    """Write the found records in one undoable edit; its result from ``result_of(rekeyed)``."""
    found = [(o.pid, o.record) for o in outcomes
             if o.verdict == "completed" and o.record is not None]
    ids = [pid for pid, _ in found]
    with lib.edit(label, [ch.PAPERS], ids) as e:
        stamp = now()
        changed = [pid for pid, record in found if apply(lib.db, pid, record, stamp)]
        rekeyed = refresh(lib.db, changed)
        e.paper_ids = set(changed)
        e.result = result_of(rekeyed)
    return e.changes


def enrich(lib: Library, ids: Iterable[int] | None = None, *, hub: Hub | None = None,
           progress: Progress = no_progress, cancel: CancelFlag | None = None) -> ch.Changes:
    """Complete the papers of ``ids`` (else every paper) that still lack something."""
    hub = hub or Hub(cancel=cancel)
    if hub.cancel is None:
        hub.cancel = cancel
    papers = candidates(lib, ids)
    progress(0.0, f"Asking the Hub about {len(papers)} papers")
    outcomes, stopped, cancelled = ask_hub(papers, hub, progress, cancel) if papers else (
        [], None, False)
    by = {v: [o for o in outcomes if o.verdict == v]
          for v in ("completed", "not_found", "unsure", "failed")}

    def result(rekeyed: dict[int, tuple[str, str]]) -> EnrichResult:
        return EnrichResult(
            asked=len(papers), completed=[o.pid for o in by["completed"]],
            not_found=[(o.pid, o.title) for o in by["not_found"]],
            unsure=[(o.pid, o.title, o.why) for o in by["unsure"]],
            failed=[(o.pid, o.title, o.why) for o in by["failed"]],
            stopped=stopped, cancelled=cancelled, requests=hub.requests, rekeyed=rekeyed,
            warnings=list(dict.fromkeys(
                [w for o in outcomes for w in o.warnings]
                + [f"{o.pid} {o.record.arxiv_id}: {p}" for o in by["completed"]
                   if o.record is not None for p in o.record.problems])))

    n = len(by["completed"])
    changes = write_outcomes(lib, outcomes, f"Complete {n} paper{'s' * (n != 1)} from "
                             "Hugging Face", result)
    progress(1.0, cast(EnrichResult, changes.result).summary())
    return changes

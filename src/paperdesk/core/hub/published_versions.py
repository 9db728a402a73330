"""``lib.published``: finding where preprints were published, and recording the version
the user accepts (``paperdesk published``, Paper > Find published version).

``find`` asks DBLP and Semantic Scholar (``published``) about each chosen paper with an
arXiv id, and changes nothing: each ``Finding`` holds the candidates and what accepting
one would change in the export. ``accept`` records one candidate as the paper's
published version, with its source and the date (one undoable edit); an export then
writes the venue entry (``@inproceedings`` with ``booktitle``, ``@article`` with
``journal``, its year, pages, volume and DOI) and keeps ``eprint``. The paper's own
fields and its citation key are never touched. A paper with two candidates is never
decided here: ``accept`` is told which one.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from paperdesk.core.db import changes as ch
from paperdesk.core.db import published_table
from paperdesk.core.hub import published
from paperdesk.core.hub.hub import HubError, HubUnavailable
from paperdesk.core.model import clock
from paperdesk.core.model.errors import PaperDeskError
from paperdesk.core.model.jobs import CancelFlag, Progress, no_progress

if TYPE_CHECKING:
    from paperdesk.core.library import Library


@dataclass
class Finding:
    """What the services said of one paper."""

    paper_id: int
    citekey: str
    title: str
    arxiv_id: str
    current: dict[str, Any] | None  # the version accepted before, if any
    candidates: list[published.Venue] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # one line each, nothing taken

    def changes(self, venue: published.Venue) -> list[str]:
        """What accepting ``venue`` changes in the export, one line a field."""
        where = "booktitle" if venue.entry_type == "inproceedings" else "journal"
        was = self.current or {}
        lines = [f"@{was.get('entry_type', 'misc')} -> @{venue.entry_type}",
                 f"{where} = {venue.venue}"]
        lines += [f"{name} = {value}" for name, value in (
            ("year", venue.year), ("volume", venue.volume), ("pages", venue.pages),
            ("doi", venue.doi)) if value and was.get(name) != value]
        return [*lines, "eprint kept"]

    def to_json(self) -> dict[str, Any]:
        return {"id": self.paper_id, "citekey": self.citekey, "title": self.title,
                "arxiv_id": self.arxiv_id, "current": self.current,
                "candidates": [{**c.record(), "changes": self.changes(c)}
                               for c in self.candidates],
                "problems": self.problems}


class Published:
    """``lib.published``."""

    def __init__(self, lib: Library) -> None:
        self.lib = lib

    def find(self, ids: Iterable[int] | None = None, *, query: str | None = None,
             progress: Progress = no_progress,
             cancel: CancelFlag | None = None) -> tuple[list[Finding], str | None]:
        """Ask about the chosen papers (``ids``, those ``query`` finds, else all) that have
        an arXiv id; (findings, why it stopped early: the services unreachable)."""
        rows = self._papers(ids, query)
        out: list[Finding] = []
        resting: dict[str, str] = {}  # a service that rate-limited us: not asked again
        for n, (pid, key, title, arxiv_id, bib_source) in enumerate(rows):
            progress(n / max(1, len(rows)), f"Asking about {arxiv_id}")
            finding = Finding(pid, key or "", title, arxiv_id,
                              published_table.of(self.lib.db, pid))
            out.append(finding)
            if bib_source:
                finding.problems.append(f"arXiv:{arxiv_id}: from a .bib file, which is "
                                        "exported as written; not looked up")
                continue
            found: list[published.Venue] = []
            unreachable = 0
            what = f"arXiv:{arxiv_id}"
            for name, ask, asked in (("DBLP", published.dblp, title),
                                     ("Semantic Scholar", published.semantic_scholar,
                                      arxiv_id)):
                if name in resting:
                    finding.problems.append(f"{what}: not asked: {resting[name]}")
                    continue
                try:
                    found += ask(asked, what, finding.problems, cancel)
                except HubUnavailable as exc:
                    unreachable += 1
                    finding.problems.append(str(exc))
                except HubError as exc:
                    finding.problems.append(str(exc))
                    if "(HTTP 429)" in str(exc) or "(HTTP 503)" in str(exc):
                        resting[name] = f"{name} asked PaperDesk to wait"
            finding.candidates = published.merged(found)
            if unreachable == 2:
                return out, finding.problems[-1]
        progress(1.0, "Done")
        return out, None

    def accept(self, paper_id: int, venue: published.Venue) -> ch.Changes:
        """Record ``venue`` as the paper's published version (its source, today's
        date); one undoable edit."""
        return self.accept_all([(paper_id, venue)])

    def accept_all(self, chosen: list[tuple[int, published.Venue]]) -> ch.Changes:
        """``accept`` for several papers at once: one undoable edit."""
        ids = [pid for pid, _venue in chosen]
        self.lib.require(ids)
        stamp = clock.now()
        for _pid, venue in chosen:
            if not venue.venue or venue.entry_type not in ("inproceedings", "article"):
                raise PaperDeskError("a published version needs a venue and a kind")
        label = "Accept the published version" + ("s" if len(chosen) > 1 else "")
        with self.lib.edit(label, [ch.PAPERS], ids) as e:
            for pid, venue in chosen:
                published_table.accept(self.lib.db, pid, {**venue.record(), "accepted": stamp})
        return e.changes

    def forget(self, paper_id: int) -> ch.Changes:
        """The paper is a preprint again in exports."""
        with self.lib.edit("Forget the published version", [ch.PAPERS], [paper_id]) as e:
            published_table.forget(self.lib.db, paper_id)
        return e.changes

    def of(self, paper_id: int) -> dict[str, Any] | None:
        return published_table.of(self.lib.db, paper_id)

    def _papers(self, ids: Iterable[int] | None, query: str | None) -> list[tuple]:
        if query:
            ids = self.lib.search(query).ids
        sql = ("SELECT id, citekey, title, arxiv_id, bib_source IS NOT NULL FROM papers "
               "WHERE arxiv_id IS NOT NULL AND deleted_at IS NULL")
        if ids is None:
            return self.lib.db.execute(sql + " ORDER BY id").fetchall()
        wanted = list(ids)
        by_id = {r[0]: r for r in self.lib.db.execute(
            sql + " AND id IN (SELECT value FROM json_each(?))",
            [json.dumps(wanted)])}
        return [by_id[i] for i in wanted if i in by_id]

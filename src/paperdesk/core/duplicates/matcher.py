"""Whether an incoming paper is one the library already holds: one rule for the
digest and .bib importers and the duplicate finder.

The same arXiv id (whatever its version, whatever its case) or the same DOI
(whatever its case) is the same paper; so is the same normalised title
(``text.title_key``) with a matching abstract, or a missing one. Titles are
looked up in a ``TitleIndex``, so an entry costs a bounded number of abstract
comparisons however many papers share its title.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from paperdesk.core.db.idlists import select_in
from paperdesk.core.model.title_index import TitleIndex

_ARXIV_VERSION = re.compile(r"v\d+$")


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

    def __init__(self, db: Any, title_keys: Iterable[str], *, identifiers: bool = False) -> None:
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

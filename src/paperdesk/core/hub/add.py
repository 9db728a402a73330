"""``paperdesk add``: a paper from any arXiv id, arXiv, Hugging Face or OpenReview link,
or DOI.

Each input is read as one identifier (``model/links.py``); one that names none fails
alone, with one line. A paper the library already has (the same arXiv id or DOI, or a
paper of the same title and abstract, such as a digest's) is that paper, never a
second one. The rest are described by arXiv's API (many ids in one request), then the
Hub (its upvotes and links, when it knows the paper), or Crossref for a DOI. A paper
no service could describe (offline, an id none knows, an OpenReview link) is still
added with what its identifier gives, its title marked as coming from the link: it is
incomplete, and adding it again, once a service answers, completes it. Everything is
one undoable edit. Every field records its source.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from paperdesk.core.bibtex.citekey import KeyAllocator, refresh
from paperdesk.core.db import changes as ch
from paperdesk.core.db import ids as id_tops
from paperdesk.core.db import papers_table
from paperdesk.core.hub import arxiv_api, crossref
from paperdesk.core.hub.found import Found, checked
from paperdesk.core.hub.hub import Hub, HubError, HubPaper, HubUnavailable, offline
from paperdesk.core.model import links
from paperdesk.core.model.clock import now
from paperdesk.core.model.jobs import CancelFlag, Progress, check_cancel, no_progress
from paperdesk.core.model.sources import marked, parse
from paperdesk.core.model.text import abstracts_match, title_key

if TYPE_CHECKING:
    from paperdesk.core.library import Library

MAX_INPUTS = 1000  # identifiers in one add (arXiv's terms: no bulk prefetching)
ADDED, ALREADY, COMPLETED, INCOMPLETE, FAILED = (
    "added", "already in the library", "completed", "added incomplete", "failed")
# A title that only stands in until a service describes the paper: the link's, or what
# a PDF attached without a paper said of itself (core/pdf/pdf_paper.py).
_PLACEHOLDERS = ("link", "pdf")
_COLS = "id, title, abstract, authors, arxiv_id, doi, url, citekey, sources, deleted_at"


@dataclass
class Item:
    """One input and what became of it."""

    input: str
    status: str = FAILED
    paper_id: int | None = None
    citekey: str | None = None
    title: str | None = None
    link: str | None = None
    source: str | None = None  # arxiv, crossref, hf, link
    why: str | None = None
    warnings: list[str] = field(default_factory=list)
    _found: Found | None = None
    _link: links.Link | None = None

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_")}


@dataclass
class AddResult(ch.Result):
    """What became of each input, in the order given."""

    inputs: list[Item]

    def summary(self) -> str:
        counts: dict[str, int] = {}
        for item in self.inputs:
            counts[item.status] = counts.get(item.status, 0) + 1
        return "; ".join(f"{n} {status}" for status, n in counts.items()) or "nothing to add"


def add(lib: Library, texts: Sequence[str], *, hub: Hub | None = None,
        progress: Progress = no_progress, cancel: CancelFlag | None = None) -> ch.Changes:
    """Add the papers ``texts`` name; ``Changes.result`` is an ``AddResult``."""
    if len(texts) > MAX_INPUTS:
        raise links.LinkError(f"{len(texts):,} identifiers at once; add at most "
                              f"{MAX_INPUTS:,} at a time")
    items = [_parsed(text) for text in texts]
    wanted = [i for i in items if i._link is not None]
    for item in wanted:
        _known(lib, item)
    progress(0.1, f"Asking about {len(wanted)} paper{'s' * (len(wanted) != 1)}")
    asking = [i for i in wanted if i.paper_id is None or _incomplete(lib, i.paper_id)]
    _describe(asking, hub or Hub(cancel=cancel), cancel)
    for item in asking:
        if item.paper_id is None and item._found is not None:
            _same_paper(lib, item)
    check_cancel(cancel)
    return _write(lib, items)


def _parsed(text: str) -> Item:
    item = Item(text if len(text) <= 200 else text[:197] + "...")
    try:
        item._link = links.parse(text)
    except links.LinkError as exc:
        item.why = str(exc)
        return item
    item.link = item._link.url
    return item


def _row(lib: Library, where: str, args: Iterable[Any]) -> dict[str, Any] | None:
    cursor = lib.db.execute(f"SELECT {_COLS} FROM papers WHERE {where} "
                            "ORDER BY deleted_at IS NOT NULL, id LIMIT 1", list(args))
    found = cursor.fetchone()
    return dict(zip([d[0] for d in cursor.description], found, strict=True)) if found else None


def _known(lib: Library, item: Item) -> None:
    """The paper the library already has under this identifier, if any."""
    link = item._link
    assert link is not None
    if link.kind == links.ARXIV:
        row = _row(lib, "arxiv_id = ? OR (arxiv_id LIKE ? AND arxiv_id GLOB ?)",
                   [link.value, link.value + "v%", link.value + "v[0-9]*"])
    elif link.kind == links.DOI:
        row = _row(lib, "lower(doi) = ?", [link.value])
    else:
        row = _row(lib, "url = ?", [link.url])
    if row is not None:
        _take(item, row)


def _take(item: Item, row: dict[str, Any]) -> None:
    item.status, item.paper_id = ALREADY, row["id"]
    item.citekey, item.title = row["citekey"], row["title"]
    if row["deleted_at"]:
        item.warnings.append(f"{item.citekey or item.paper_id} is in the trash "
                             "(`paperdesk trash restore` brings it back)")


def _incomplete(lib: Library, pid: int) -> bool:
    sources = parse(lib.db.execute("SELECT sources FROM papers WHERE id = ?",
                                   [pid]).fetchone()[0])
    return sources.get("title", {}).get("source") in _PLACEHOLDERS


def _describe(items: list[Item], hub: Hub, cancel: CancelFlag | None) -> None:
    """Ask arXiv (all ids at once), the Hub, and Crossref; a service that cannot be
    reached is asked no more, and its papers are kept with what their links give."""
    arxiv = [i for i in items if i._link is not None and i._link.kind == links.ARXIV]
    if arxiv:
        try:
            found = arxiv_api.lookup([i._link.value for i in arxiv if i._link], cancel)
        except HubError as exc:
            found = {}
            for item in arxiv:
                item.warnings.append(str(exc))
        for item in arxiv:
            if item._link is not None and item._link.value in found:
                item._found, item.source = found[item._link.value], "arxiv"
        _ask_hub(arxiv, hub)
    unreachable = False
    for item in items:
        if item._link is None or item._link.kind != links.DOI:
            continue
        if unreachable:
            item.warnings.append("Crossref was not asked (it could not be reached)")
            continue
        try:
            item._found = crossref.lookup(item._link.value, cancel)
            item.source = "crossref" if item._found else None
        except HubError as exc:
            unreachable = isinstance(exc, HubUnavailable)
            item.warnings.append(str(exc))


def _ask_hub(items: list[Item], hub: Hub) -> None:
    """The Hub's record of each arXiv paper: its upvotes and links, and its text where
    arXiv gave none."""
    if offline():
        return
    for item in items:
        assert item._link is not None
        try:
            record = hub.paper(item._link.value)
        except HubUnavailable as exc:
            item.warnings.append(str(exc))
            return
        except HubError as exc:
            item.warnings.append(str(exc))
            continue
        if record is not None:
            item._found = _merged(item._found, record)
            item.source = item.source or "hf"


def _merged(found: Found | None, record: HubPaper) -> Found:
    """arXiv's description with the Hub's upvotes and links (the Hub's text where arXiv
    gave none)."""
    if found is None:
        found = Found(source="hf", title=record.title, abstract=record.abstract,
                      authors=list(record.authors), published=record.published,
                      arxiv_id=record.arxiv_id)
    found.upvotes, found.github, found.project_page = (
        record.upvotes, record.github, record.project_page)
    return checked(found)


def _same_paper(lib: Library, item: Item) -> None:
    """A paper of the same title and abstract (a digest's) is this one."""
    found = item._found
    assert found is not None
    for row in lib.db.execute(f"SELECT {_COLS} FROM papers WHERE title_key = ?",
                              [title_key(found.title)]):
        paper = dict(zip(_COLS.split(", "), row, strict=True))
        if paper["arxiv_id"] or paper["doi"]:
            continue  # another identifier: another paper, or a duplicate to review
        if found.abstract and abstracts_match(paper["abstract"], found.abstract):
            _take(item, paper)
            return


def _write(lib: Library, items: list[Item]) -> ch.Changes:
    new: list[Item] = []
    twins: list[tuple[Item, Item]] = []  # the same paper named twice in one add
    first_of: dict[tuple[str, str], Item] = {}
    for item in items:
        if item._link is None:
            continue
        named = first_of.setdefault(_paper_key(item._link), item)
        if named is not item:
            twins.append((item, named))
        elif item.paper_id is None:
            new.append(item)
    fill = [i for i in items if i.paper_id is not None and i._found is not None
            and i._link is not None and first_of.get(_paper_key(i._link)) is i]
    first = id_tops.first_free(lib.db, "papers")
    new_ids = list(range(first, first + len(new)))
    pids = new_ids + [i.paper_id for i in fill if i.paper_id is not None]
    if not pids:  # nothing new, nothing to complete: the library is not written
        _twins(twins)
        return ch.Changes("Add by identifier", frozenset(), frozenset(), None,
                          AddResult(items))
    label = f"Add {len(new)} paper{'s' * (len(new) != 1)} by identifier"
    with lib.edit(label, [ch.PAPER_SET, ch.PAPERS] if new else [ch.PAPERS], pids) as e:
        stamp = now()
        keys = KeyAllocator(lib.db, expected=len(new))
        papers_table.insert_added(lib.db, [_new_row(pid, item, keys, stamp)
                                           for pid, item in zip(new_ids, new, strict=True)])
        completed = [i.paper_id for i in fill
                     if i.paper_id is not None and _fill(lib, i.paper_id, i, stamp)]
        rekeyed = refresh(lib.db, completed)
        for item in fill:
            if item.paper_id in completed:
                item.status = COMPLETED
                item.citekey = rekeyed.get(item.paper_id, (None, item.citekey))[1]
        for item in items:
            if item.status == ALREADY and item.paper_id not in completed and (
                    item.paper_id is not None and _incomplete(lib, item.paper_id)):
                item.why = "still incomplete: no service could describe it"
        _twins(twins)
        e.result = AddResult(items)
    return e.changes


def _twins(twins: list[tuple[Item, Item]]) -> None:
    for twin, named in twins:
        twin.status, twin.why = ALREADY, f"named before as {named.input}"
        twin.paper_id, twin.citekey, twin.title = named.paper_id, named.citekey, named.title


def _paper_key(link: links.Link) -> tuple[str, str]:
    """Links to one paper (any version of it) are one paper."""
    return link.kind, link.value


def _new_row(pid: int, item: Item, keys: KeyAllocator, stamp: str) -> list[Any]:
    link, found = item._link, item._found
    assert link is not None
    if found is None:
        title, values = str(link), {"arxiv_id": link.value if link.kind == links.ARXIV else None,
                                    "doi": link.value if link.kind == links.DOI else None}
        authors: list[str] = []
        published = year = None
        fields, source = ["title", *(n for n, v in values.items() if v), "url"], "link"
        item.status, item.source = INCOMPLETE, "link"
        item.warnings.append(f"{link}: no service could describe it; kept with what the "
                             "link gives (add it again later to complete it)")
    else:
        title, authors, published = found.title, found.authors, found.published
        year = int(published[:4]) if published else found.year
        values = {"arxiv_id": found.arxiv_id or (link.value if link.kind == links.ARXIV
                                                 else None),
                  "doi": found.doi or (link.value if link.kind == links.DOI else None)}
        fields = ["title", "abstract", "authors", "published", "year",
                  *(n for n, v in values.items() if v), "url"]
        source = found.source
        item.status = ADDED
    url = (found.url if found else None) or link.url
    citekey = keys.take({"title": title, "authors": authors, "year": year})
    item.paper_id, item.citekey, item.title = pid, citekey, title
    hub = found if found is not None and found.upvotes is not None else None
    from_hub = ["upvotes"] if hub is not None else []  # the Hub's, whoever gave the rest
    from_hub += [n for n in ("github", "project_page") if found and getattr(found, n)]
    # The key is made from what the source gave: it is the source's, as a digest
    # paper's key is the digest's (not a .bib file's, the default of a paper never seen).
    made = [f for f in fields if f != "authors" or authors] + ["citekey"]
    sources = marked(marked(None, made, source, stamp), from_hub, "hf", stamp)
    return [pid, title, found.abstract if found else "", title_key(title),
            json.dumps(authors, ensure_ascii=False), len(authors) or None, published, year,
            values["arxiv_id"], values["doi"], url, found.github if found else None,
            found.project_page if found else None, hub.upvotes if hub else None,
            hub.upvotes if hub else None, citekey, sources, stamp, stamp]


def _fill(lib: Library, pid: int, item: Item, stamp: str) -> bool:
    """What the paper lacked, from what the service said; a field the user typed or a
    .bib file gave is kept, as completing from the Hub keeps it."""
    found = item._found
    assert found is not None
    row = _row(lib, "id = ?", [pid])
    assert row is not None
    sources = parse(row["sources"])

    def open_to(name: str) -> bool:
        return sources.get(name, {}).get("source") not in ("user", "bib")

    placeholder = sources.get("title", {}).get("source") in _PLACEHOLDERS
    new: dict[str, Any] = {}
    if placeholder and found.title:
        new.update(title=found.title, title_key=title_key(found.title))
    if found.abstract and (placeholder or not row["abstract"]) and open_to("abstract"):
        new["abstract"] = found.abstract
    if found.authors and row["authors"] in (None, "", "[]") and open_to("authors"):
        new.update(authors=json.dumps(found.authors, ensure_ascii=False),
                   author_count=len(found.authors))
    for name in ("arxiv_id", "doi"):
        if getattr(found, name) and not row[name]:
            new[name] = getattr(found, name)
    if found.published and (placeholder or open_to("published")):
        new.update(published=found.published, year=int(found.published[:4]),
                   year_inferred=0)
    if not new:
        return False
    shown = [n for n in new if n not in ("title_key", "author_count", "year_inferred")]
    new["sources"] = marked(row["sources"], shown, found.source, stamp)
    new["modified"] = stamp
    papers_table.set_columns(lib.db, pid, new)
    item.title = new.get("title", item.title)
    return True

"""``paperdesk pdf fetch`` and Paper > Get PDF: the arXiv PDF of each paper asked for.

Only the papers asked for are fetched (arXiv's terms: no bulk prefetching). A paper
needs an arXiv id; one that already has a PDF attached is left as it is. The PDF is
the version the library records (the id's or the arXiv link's ``vN``); a paper with
no version recorded gets the one arXiv's API says is current (one request for up to
fifty papers, under the same pace as the PDFs), and the attachment records which.

Every PDF is downloaded first, into a folder of its own beside the library that is
removed at the end whatever happens; then the PDFs are attached, all in one undoable
edit (``lib.pdf.attach``: the files folder, the SHA-256, the page count). A PDF that
fails (not a PDF, too large, cut short, too slow: ``arxiv_pdf``) is one line in the
result and nothing of it is kept; arXiv unreachable stops the run with its line.
Cancelled part way, the PDFs already downloaded are attached and the rest said to be
not fetched.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperdesk.core.db import changes as ch
from paperdesk.core.db.database import select_in
from paperdesk.core.hub import arxiv_api, arxiv_pdf
from paperdesk.core.hub.hub import HubError, HubUnavailable
from paperdesk.core.model import identifiers
from paperdesk.core.model.errors import Cancelled, PaperDeskError
from paperdesk.core.model.jobs import CancelFlag, Progress, no_progress

if TYPE_CHECKING:
    from paperdesk.core.library import Library

FETCHED, HAS_PDF, NO_ARXIV, FAILED, NOT_FETCHED = (
    "fetched", "already has a PDF", "no arXiv id", "failed", "not fetched")
MAX_PAPERS = 200  # PDFs in one fetch (arXiv's terms: no bulk prefetching)
_VERSIONED = re.compile(r"^(?P<id>.+?)v(?P<v>[1-9][0-9]{0,3})$")
_ABS = re.compile(r"arxiv\.org/(?:abs|pdf|html)/(?P<id>.+?)v(?P<v>[1-9][0-9]{0,3})"
                  r"(?:\.pdf)?/?$")


@dataclass
class Item:
    """One paper asked for and what became of it."""

    paper_id: int
    citekey: str | None
    title: str
    arxiv_id: str | None = None
    version: int | None = None
    status: str = NOT_FETCHED
    why: str | None = None
    url: str | None = None
    _file: Path | None = None

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_")}


@dataclass
class FetchResult(ch.Result):
    papers: list[Item]
    cancelled: bool = False
    stopped: str | None = None   # why the run stopped (arXiv unreachable)
    warnings: list[str] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(item.status == status for item in self.papers)

    def summary(self) -> str:
        counts: dict[str, int] = {}
        for item in self.papers:
            counts[item.status] = counts.get(item.status, 0) + 1
        fetched = counts.pop(FETCHED, 0)
        head = f"Fetched {fetched} PDF{'s' * (fetched != 1)}" if fetched else "No PDF fetched"
        rest = "; ".join(f"{n} {status}" for status, n in counts.items())
        return head + (f" ({rest})" if rest else "") + ("; cancelled" if self.cancelled else "")


def recorded_version(arxiv_id: str | None, url: str | None) -> tuple[str | None, int | None]:
    """(the id without its version, the version the library records, or None)."""
    if not arxiv_id:
        return None, None
    match = _VERSIONED.match(arxiv_id)
    if match:
        return match["id"], int(match["v"])
    found = _ABS.search(url or "")
    if found and found["id"] == arxiv_id:
        return arxiv_id, int(found["v"])
    return arxiv_id, None


def to_read_without_pdf(lib: Library, ids: Iterable[int] | None = None) -> list[int]:
    """The papers (of ``ids``, else all) marked to-read that have an arXiv id and no
    PDF: what the fetch-to-read setting fetches."""
    sql = ("SELECT id FROM papers WHERE status = 'to-read' AND deleted_at IS NULL "
           "AND arxiv_id IS NOT NULL AND arxiv_id != '' AND NOT EXISTS "
           "(SELECT 1 FROM attachments a WHERE a.paper_id = papers.id)")
    if ids is None:
        return [r[0] for r in lib.db.execute(sql + " ORDER BY list_position, id")]
    return sorted(r[0] for r in select_in(lib.db, sql + " AND id IN ({marks})", list(ids)))


def fetch_pdfs(lib: Library, ids: Sequence[int], *, progress: Progress = no_progress,
               cancel: CancelFlag | None = None) -> ch.Changes:
    """Fetch and attach the arXiv PDFs of ``ids``; ``Changes.result`` is a
    ``FetchResult``, the changes one undoable edit (none when nothing came)."""
    ids = list(dict.fromkeys(ids))
    if len(ids) > MAX_PAPERS:
        raise HubError(f"{len(ids):,} papers at once; fetch at most {MAX_PAPERS} PDFs "
                       "at a time (arXiv asks for no bulk downloads)")
    ids = lib.require(ids)
    result = FetchResult(_items(lib, ids))
    wanted = [i for i in result.papers if i.status == NOT_FETCHED]
    folder = Path(tempfile.mkdtemp(prefix=f".{lib.name}.fetching-", dir=lib.path.parent))
    try:
        _versions(wanted, result, cancel)
        _download(wanted, folder, result, progress, cancel)
        return _attach_all(lib, [i for i in wanted if i._file is not None], result)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _items(lib: Library, ids: Sequence[int]) -> list[Item]:
    rows = {r[0]: r for r in select_in(
        lib.db, "SELECT id, citekey, title, arxiv_id, url FROM papers WHERE id IN ({marks})",
        ids)}
    with_pdf = {r[0] for r in select_in(
        lib.db, "SELECT DISTINCT paper_id FROM attachments WHERE paper_id IN ({marks})", ids)}
    items = []
    for pid in ids:
        _, citekey, title, arxiv_id, url = rows[pid]
        item = Item(pid, citekey, title)
        item.arxiv_id, item.version = recorded_version(arxiv_id, url)
        if item.arxiv_id is None:
            item.status, item.why = NO_ARXIV, "it has no arXiv id (add one, or attach a PDF)"
        elif not identifiers.valid("arxiv_id", arxiv_id):  # never a path of arXiv's made up
            item.status, item.why = NO_ARXIV, identifiers.problem("arxiv_id", arxiv_id)
            item.arxiv_id = None
        elif pid in with_pdf:
            item.status = HAS_PDF
        items.append(item)
    return items


def _versions(items: list[Item], result: FetchResult, cancel: CancelFlag | None) -> None:
    """The current version of each paper that records none, from arXiv's API."""
    unknown = [i for i in items if i.version is None]
    if not unknown:
        return
    try:
        found = arxiv_api.lookup([i.arxiv_id for i in unknown if i.arxiv_id], cancel)
    except Cancelled:
        result.cancelled = True
        return
    except HubError as exc:
        result.warnings.append(str(exc))
        found = {}
        if isinstance(exc, HubUnavailable):
            result.stopped = str(exc)
    for item in unknown:
        known = found.get(item.arxiv_id or "")
        if known is not None and known.version:
            item.version = known.version
        else:
            item.status = FAILED
            item.why = result.stopped or "arXiv did not say which version is current"


def _download(items: list[Item], folder: Path, result: FetchResult, progress: Progress,
              cancel: CancelFlag | None) -> None:
    todo = [i for i in items if i.status == NOT_FETCHED]
    for n, item in enumerate(todo):
        if result.cancelled or result.stopped:
            item.why = "cancelled" if result.cancelled else result.stopped
            if result.stopped:
                item.status = FAILED
            continue
        assert item.arxiv_id is not None and item.version is not None
        progress(n / max(1, len(todo)),
                 f"Fetching the PDF of arXiv {item.arxiv_id}v{item.version} "
                 f"({n + 1} of {len(todo)})")
        dest = folder / f"{n}.pdf"
        try:
            item.url = arxiv_pdf.download(item.arxiv_id, item.version, dest, cancel)
            item._file = dest
        except Cancelled:
            result.cancelled, item.why = True, "cancelled"
        except HubError as exc:
            item.status, item.why = FAILED, str(exc)
            if isinstance(exc, HubUnavailable):
                result.stopped = str(exc)
        if item._file is None:
            with contextlib.suppress(OSError):
                dest.unlink()
    progress(1.0, "Attaching the PDFs")


def _attach_all(lib: Library, items: list[Item], result: FetchResult) -> ch.Changes:
    if not items:
        return ch.Changes("Get PDF", frozenset(), frozenset(), None, result)
    label = f"Get {len(items)} PDF{'s' * (len(items) != 1)} from arXiv"
    with lib.edit(label, [ch.ATTACHMENTS], [i.paper_id for i in items]) as e:
        for item in items:
            assert item._file is not None
            try:
                with lib.write(label):  # a savepoint: a file it refuses leaves the rest
                    attach(lib, item.paper_id, item._file, item.url, item.version)
                item.status = FETCHED
            except PaperDeskError as exc:  # the store's one-line refusals
                item.status, item.why = FAILED, str(exc)
        e.result = result
    return e.changes



def attach(lib: Library, paper_id: int, path: Path, url: str | None,
           version: int | None) -> None:
    """Attach the PDF at ``path`` to the paper, as fetched from ``url``: the one call
    into the library's PDFs (``lib.pdf``: the files folder, the SHA-256, the pages)."""
    lib.pdf.attach(paper_id, path, source="arxiv", source_url=url, arxiv_version=version)

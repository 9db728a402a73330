"""A run of a .bib file's segments read into rows ready to write (pure, no database).

The import cuts the file into segments (``core/bibtex/bib_scan.py``) and hands them
out in *chunks*: the text of a run of segments, with the slow segments' entries
already read by the scan. ``read_chunk`` reads each entry's fields and prepares
everything the database write needs that does not depend on the library: the
title key, the JSON of the authors and of the extra fields, the kept entry
(``bibtex_source.source_parts``, without the file's id) and, when the library may
hold the same entry already, its digest (``shas``). It runs
in the importing process or in a reading process (``core/importing/bib_pool.py``);
either way the same ``Entry`` tuples come out, in file order.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from paperdesk.core.bibtex.bib_macros import MacroOrder, as_read_there, early_text
from paperdesk.core.bibtex.bib_read import read_item
from paperdesk.core.bibtex.bib_scan import Failure, RawEntry, Scan, Segment, read_fast, read_slow
from paperdesk.core.bibtex.bibtex_fields import BibPaper, value_reader
from paperdesk.core.bibtex.bibtex_source import (
    entry_sha,
    json_text,
    read_stored,
    source_parts,
    source_sha,
)
from paperdesk.core.model.digest import CAPS, cut
from paperdesk.core.model.errors import PaperDeskError
from paperdesk.core.model.text import tag_name, title_key

_JSON = json_text  # json.dumps(..., ensure_ascii=False)


class Entry(NamedTuple):
    """One readable entry, as the writer needs it (a tuple: cheap to send between processes)."""
    key: str
    line: int
    sha: str  # entry_sha, or "" when it was not asked for (``entry_sha_of``)
    title: str
    abstract: bytes  # in UTF-8, as it goes into SQLite (twice: the row, the search row)
    title_key: str
    authors: str  # JSON list
    author_count: int | None
    organization: str | None
    published: str | None
    year: int | None
    arxiv_id: str | None
    doi: str | None
    url: str | None
    bib_type: str | None
    extra: str | None  # JSON object, or None when there are no extra fields
    source_head: bytes  # the kept entry's JSON before the file's id, in UTF-8
    source_tail: bytes  # and after it
    tags: tuple[str, ...]  # as written, checked when written


@dataclass
class Chunk:
    """The text from the first segment's start to the end of the next segment's block
    start (an unclosed block ends there, as when the whole file is read), as text or as
    UTF-8 bytes; where it starts in the file's text; the segments (the next one last,
    when there is one) with their offsets in the file's text; and the entries the scan
    read from the slow ones, by position in ``segments``."""
    text: str | bytes
    offset: int
    segments: list[Segment]
    count: int  # segments of this chunk (a further one is only the next block start)
    slow: dict[int, list[RawEntry]] = field(default_factory=dict)
    first: int = 0  # the index of its first segment in the file
    order: MacroOrder | None = None  # the file's, when an entry stands above a @string


@dataclass
class ChunkResult:
    entries: list[Entry]
    failures: list[Failure]  # blocks that could not be read, in file order
    late: list[Failure]  # entries whose fields could not be read
    warnings: list[str]  # what the entries' fields said, with their lines


def chunk_span(found: Scan, first: int, last: int) -> tuple[int, int]:
    """Where the chunk of segments ``first`` to ``last - 1`` starts and ends in the text."""
    segs = found.segments
    return segs[first].start, segs[last].head_end if last < len(segs) else segs[last - 1].end


def make_chunk(piece: str | bytes, found: Scan, first: int, last: int) -> Chunk:
    """The chunk of segments ``first`` to ``last - 1`` (``piece``: the text of its span,
    or those characters in UTF-8); their slow entries are taken out of the scan."""
    segs = found.segments
    slow = {i - first: found.slow_entries.pop(i) for i in range(first, last)
            if i in found.slow_entries}
    order = found.order if found.order is not None and first < found.order.last else None
    return Chunk(piece, segs[first].start, segs[first:last + 1], last - first, slow, first,
                 order)


def chunk_reader(strings: dict[str, str], string_keys: set[str], name: str,
                 shas: bool = True) -> Callable[[Chunk], ChunkResult]:
    """``read_chunk`` for the chunks of one file (its resolved values cached across them)."""
    read_value = value_reader(strings)
    return lambda chunk: read_chunk(chunk, strings, string_keys, name, read_value, shas)


def read_chunk(chunk: Chunk, strings: dict[str, str], string_keys: set[str], name: str,
               read_value: Callable[[str], tuple[str, str]] | None = None,
               shas: bool = True) -> ChunkResult:
    """Every entry of the chunk in file order, as ``BibReader.papers`` reads them;
    ``shas``: with each entry's digest (none is needed in a library without .bib
    entries: the same entry cannot be there)."""
    out = ChunkResult([], [], [], [])
    text = chunk.text if isinstance(chunk.text, str) else chunk.text.decode("utf-8")
    offset = chunk.offset
    segments: list[Segment] = []  # in the chunk's text (made for bibtexparser only)
    for index in range(chunk.count):
        seg = chunk.segments[index]
        if not seg.fast:
            raws: Any = chunk.slow.get(index, ())
        else:
            entry = read_fast(text, seg, offset)
            if entry is not None:
                raws = (entry,)
            else:  # only bibtexparser can tell
                segments = segments or [
                    s._replace(start=s.start - offset, end=s.end - offset,
                               head_end=s.head_end - offset) if s.head_end else s
                    for s in chunk.segments]
                alone = Scan(segments, string_keys=string_keys)
                read_slow(text, alone, index)
                out.failures.extend(alone.failures)
                raws = alone.slow_entries.get(index, ())
        order, at = chunk.order, chunk.first + index
        for raw in raws:
            if order is not None and at < order.last:
                raw, early = as_read_there(raw, at, order, strings)
                if early:
                    out.warnings.append(early_text(name, raw, early))
            paper = _paper(raw, strings, name, out, read_value)
            if paper is not None:
                out.entries.append(_entry(paper, shas))
    return out


def _paper(item: RawEntry, strings: dict[str, str], name: str, out: ChunkResult,
           read_value: Callable[[str], tuple[str, str]] | None) -> BibPaper | None:
    paper, failure, warnings = read_item(item, strings, name, read_value)
    if failure is not None:
        out.late.append(failure)
    out.warnings.extend(warnings)
    if paper is not None:
        _cap(paper, name, out.warnings)
    return paper


def _cap(paper: BibPaper, name: str, warnings: list[str]) -> None:
    """The library's copy of each long field cut to its cap, as for digests (the entry's
    own text is kept as written); a 2 MB title took 87 s to import."""
    for what in ("title", "abstract", "organization"):
        value = getattr(paper, what)
        if value and len(value) > CAPS[what]:
            said: list[str] = []
            setattr(paper, what, cut(value, what, paper.line, said))
            warnings.extend(f"{name}: {w}" for w in said)


def _entry(paper: BibPaper, shas: bool = True) -> Entry:
    sha = entry_sha(paper.raw_type, paper.key, paper.fields) if shas else ""
    names = [a for a in paper.authors if a.lower() != "others"]
    count = len(names) if names and len(names) == len(paper.authors) else None
    seen = {"title": paper.title, "authors": paper.authors,
            "organization": paper.organization, "year": paper.year,
            "published": paper.published, "arxiv_id": paper.arxiv_id, "doi": paper.doi,
            "url": paper.url, "abstract": paper.abstract}
    head, tail = source_parts(paper.raw_type, paper.key, paper.fields, paper.names, seen,
                              [tag_name(t) for t in paper.tags if tag_ok(t)], sha or None)
    return Entry(paper.key, paper.line, sha, paper.title, paper.abstract.encode("utf-8"),
                 title_key(paper.title), _JSON(paper.authors), count, paper.organization,
                 paper.published, paper.year, paper.arxiv_id, paper.doi, paper.url,
                 paper.bib_type, _JSON(paper.extra) if paper.extra else None, head, tail,
                 tuple(paper.tags))


def tag_ok(name: str) -> bool:
    try:
        tag_name(name)
    except PaperDeskError:
        return False
    return True


def authors_of(entry: Entry) -> list[str]:
    return json.loads(entry.authors)


def _kept(entry: Entry) -> dict[str, Any]:
    """The entry's kept JSON, read back (its file id, not known to a reader, as null)."""
    return read_stored(entry.source_head + b"null" + entry.source_tail)


def entry_sha_of(entry: Entry) -> str:
    """The entry's digest, worked out from its kept entry when it was read without."""
    return entry.sha or source_sha(_kept(entry))


def paper_of(entry: Entry) -> BibPaper:
    """The entry as a BibPaper again (for the rare entry that merges into a paper)."""
    source = _kept(entry)
    seen = source["seen"]
    return BibPaper(key=entry.key, line=entry.line, title=entry.title,
                    abstract=entry.abstract.decode("utf-8"), authors=seen["authors"],
                    organization=entry.organization, year=entry.year,
                    published=entry.published, arxiv_id=entry.arxiv_id, doi=entry.doi,
                    url=entry.url, tags=list(entry.tags), bib_type=entry.bib_type,
                    raw_type=source["type"],
                    fields=[(n, v) for n, v in source["fields"]], names=source["names"],
                    extra=json.loads(entry.extra) if entry.extra else {})

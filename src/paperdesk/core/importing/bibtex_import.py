"""Importing .bib files through ``paperdesk import`` (recognised by content).

Each file goes in whole, in one transaction: entries that cannot be read are
reported with their line numbers and skipped, the rest imports, with or without
a title. A file with no readable entry at all is an error and changes nothing.

Nothing merges silently (see ``_Writer``): entries of one file never merge with
each other, and an entry merges into a paper already in the library only on the
same DOI or arXiv id (or as the very same entry); every merge is listed in the
report as ``key -> paper (reason)``, every skipped entry with its line and
reason. Look-alikes become duplicate candidates for review. Each entry keeps its
fields as written (``core/bibtex/bibtex_source.py``); its key is kept when no other
paper has it, even in another case, and it is not retired (``KeyAllocator.claim``).
"""

from __future__ import annotations

import bisect
import collections
import hashlib
import itertools
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from paperdesk.core.bibtex.bib_c1 import cp1252_bytes, cp1252_punctuation
from paperdesk.core.bibtex.bib_read import BibReader, Parsed, parse_file
from paperdesk.core.bibtex.bib_scan import Scan, entry_keys, readable, strip_entry_comments
from paperdesk.core.bibtex.bibtex_fields import BibPaper
from paperdesk.core.bibtex.citekey import fold
from paperdesk.core.db import changes as ch
from paperdesk.core.db import papers_table, store
from paperdesk.core.duplicates.duplicates import note_new
from paperdesk.core.importing import bib_pool, file_report
from paperdesk.core.importing.bib_records import (
    Chunk,
    ChunkResult,
    Entry,
    chunk_span,
    make_chunk,
)
from paperdesk.core.importing.bibtex_write import BibWriter, bib_key_ok
from paperdesk.core.importing.file_report import IMPORTED, RENAMED, FileBytes, FileReport
from paperdesk.core.model.clock import now
from paperdesk.core.model.decode import decode_text, sniff_text
from paperdesk.core.model.errors import BibtexError
from paperdesk.core.model.jobs import (
    CancelFlag,
    Progress,
    cancellable_sql,
    check_cancel,
    no_progress,
)

if TYPE_CHECKING:
    from paperdesk.core.library import Library

__all__ = ["Parsed", "bib_key_ok", "import_bib", "parse", "parse_file", "readable", "sniff",
           "strip_entry_comments"]

# "@article{key," or "@string{": a Java "@Override" or "@Test(" is not BibTeX.
_ENTRY_START = re.compile(r"(?mi)^[ \t]*@[ \t]*(?:[a-z]+[ \t]*[{(][ \t]*[^\n,={}()\"#%]+"
                          r"\s*,|(?:string|preamble|comment)[ \t]*[{(])")


def sniff(data: bytes) -> bool:
    """A .bib file: an ``@type{key,`` at the start of a line, near the top or after a
    long preamble of comments (digests are recognised first, by their header)."""
    return bool(_ENTRY_START.search(sniff_text(data, 65536))
                or (len(data) > 65536 and _ENTRY_START.search(sniff_text(data))))


def parse(text: str, name: str) -> tuple[list[BibPaper], list[str], int]:
    """The readable entries that have a title, the warnings, and how many blocks
    failed or had no title (the import itself takes entries without a title too:
    ``parse_file``)."""
    parsed = parse_file(text, name)
    titled = [p for p in parsed.papers if p.title]
    return titled, parsed.warnings, parsed.failed + len(parsed.papers) - len(titled)


def import_bib(lib: Library, path: Path, source: FileBytes, progress: Progress = no_progress,
               cancel: CancelFlag | None = None) -> FileReport:
    """Read the file's entries a chunk at a time (in reading processes when the file is
    large: ``bib_pool``) and write them in chunks, all in one transaction; a file in which
    no entry can be read changes nothing. Its bytes go once all is written (``source``)."""
    report = FileReport(str(path), path.name, file_report.ERROR, kind="bibtex")
    data = source.take()
    readers = bib_pool.reader_count(len(data))
    sha = hashlib.sha256(data).hexdigest()
    progress(0.05, f"Reading {path.name}")
    data, reader, keys, chunks, decode_warnings = _scanned(data, path.name, readers)
    found = reader.found
    # The reading processes start now that the text has gone: started before, they were
    # held beside the file's bytes and its text, the import's largest moment.
    with bib_pool.ReaderPool(readers) as pool:
        # An entry's digest finds it again in a library holding .bib entries; in one
        # without (checked here: the writer works it out if one comes in meanwhile)
        # the readers need not make it.
        shas = lib.db.execute("SELECT 1 FROM bib_files LIMIT 1").fetchone() is not None
        lines: list[int] = []  # of the entries, in file order
        entries = _entries(pool.read(chunks, reader.strings, found.string_keys, path.name,
                                     cancel, shas), reader, lines)
        first = next(entries, None)  # none: the whole file is read, and nothing is written
        check_cancel(cancel)
        report.warnings = list(decode_warnings)
        if first is None:
            _no_entries(report, reader, path.name)
        with store.large_write(lib.db), lib.write(f"Import {path.name}") as w, \
                cancellable_sql(lib.db.conn, cancel):
            file_id = lib.db.execute(
                "INSERT INTO bib_files (name, sha256, preambles, strings, imported_at) "
                "VALUES (?, ?, ?, ?, ?)",
                [path.name, sha, json.dumps(found.preambles), json.dumps(found.strings),
                 now()]).lastrowid
            assert file_id is not None  # the row the INSERT just made
            writer = BibWriter(lib, report, progress, cancel, file_id, reader.expected)
            writer.allocator.expect(keys)  # before any key is made: none takes one of these
            if first is not None:
                writer.write(itertools.chain([first], entries))
                # what reading said comes before what matching said, as before
                report.warnings[len(decode_warnings):len(decode_warnings)] = reader.warnings
                report.skipped = reader.skipped
            else:
                writer.write([])
            del data, chunks  # all read and written: the file's bytes are held no more
            found.segments = []  # nor where its blocks are
            report.entries = reader.read
            _keep_comments(lib, found.comments, lines, writer.touched, writer.top)
            _repeated_keys(report, keys)
            report.likely_duplicates = note_new(lib, report.created_ids)
            w.changes = file_report.file_changes(report, (ch.TAGS,))
    report.status = IMPORTED
    if reader.failed:
        report.warnings.append(f"{path.name}: {reader.failed} of {reader.failed + reader.read} "
                               "entries were skipped")
    return report


def _scanned(data: bytes, name: str, readers: int
             ) -> tuple[bytes, BibReader, list[str], Iterator[Chunk], list[str]]:
    """The file decoded and scanned: its bytes (re-encoded if the scan moved loose block
    starts), the reader, the entries' keys, the chunks to read (as UTF-8 bytes when
    ``readers`` decode them: the text is then let go), the decoding's warnings."""
    text, encoding, decode_warnings = decode_text(data, name)
    if encoding == "utf-8":  # C1 controls read as cp1252, found in the bytes (fast)
        fixed_data, said = cp1252_bytes(data, name)
        if fixed_data is not data:  # the readers decode these bytes; the bad bytes are
            # those of before (reported at their offsets in the file as it is)
            data, text = fixed_data, decode_text(fixed_data, name)[0]
            decode_warnings = decode_warnings + said
    elif encoding.startswith("utf"):
        fixed, said = cp1252_punctuation(text, name)
        if fixed is not text:
            text, data, decode_warnings = fixed, fixed.encode("utf-8"), decode_warnings + said
    reader = BibReader(text, name)
    if reader.text is not text:  # loose block starts moved (ASCII, same length)
        text, data = reader.text, reader.text.encode("utf-8")
    found = reader.found
    keys = [k for k in entry_keys(text, found) if bib_key_ok(k)]
    if readers and encoding == "utf-8" and b"\r" not in data:
        chunks = _byte_chunks(text, data, found)  # the readers decode them
        reader.text = text = ""  # the bytes stay (until written): the text goes
    else:
        chunks = _chunks(text, found)
    return data, reader, keys, chunks, decode_warnings


def _no_entries(report: FileReport, reader: BibReader, name: str) -> None:
    """A file with definitions only imports them; one with nothing readable is an error."""
    found = reader.found
    report.warnings += reader.warnings
    report.skipped = reader.skipped
    if not ((found.strings or found.preambles) and not reader.failed):
        detail = f" ({reader.warnings[0].split(': ', 1)[1]})" if reader.warnings else ""
        raise BibtexError(f"{name}: no BibTeX entry could be read{detail}; "
                          "nothing was imported")
    report.warnings.append(f"{name}: no entries; its {len(found.strings)} @string "
                           f"and {len(found.preambles)} @preamble definitions are kept "
                           "and exported with every export")


CHUNK_SEGMENTS = 1000  # segments read at a time, here or in a reading process


def _spans(found: Scan) -> list[tuple[int, int]]:
    count = len(found.segments)
    return [(first, min(first + CHUNK_SEGMENTS, count))
            for first in range(0, count, CHUNK_SEGMENTS)]


def _chunks(text: str, found: Scan) -> Iterator[Chunk]:
    for first, last in _spans(found):
        start, end = chunk_span(found, first, last)
        yield make_chunk(text[start:end], found, first, last)


def _byte_chunks(text: str, data: bytes, found: Scan) -> Iterator[Chunk]:
    """The chunks as UTF-8 bytes of ``data`` (whose decoding is ``text``, unchanged):
    where each starts and ends in ``data`` is worked out now, so that ``text`` can go."""
    spans = _spans(found)
    points = sorted({p for first, last in spans for p in chunk_span(found, first, last)})
    if text.isascii():
        at = {p: p for p in points}
    else:
        at, done, size = {}, 0, 0
        for point in points:
            size += len(text[done:point].encode("utf-8"))
            at[point], done = size, point
    return _sliced(data, found, spans, at)


def _sliced(data: bytes, found: Scan, spans: list[tuple[int, int]],
            at: dict[int, int]) -> Iterator[Chunk]:
    for first, last in spans:
        start, end = chunk_span(found, first, last)
        yield make_chunk(data[at[start]:at[end]], found, first, last)


def _entries(results: Iterator[ChunkResult], reader: BibReader,
             lines: list[int]) -> Iterator[Entry]:
    """The entries of each chunk (their lines into ``lines``); what could not be read is
    counted in the reader, as ``BibReader.papers`` counts it."""
    for result in results:
        reader.failures.extend(result.failures)
        reader.late.extend(result.late)
        reader.entry_warnings.extend(result.warnings)
        reader.read += len(result.entries)
        lines.extend(e.line for e in result.entries)
        yield from result.entries


def _repeated_keys(report: FileReport, keys: list[str]) -> None:
    """A key not kept because an entry before it in the file has it (or has it in another
    case) says so."""
    counts = collections.Counter(keys)
    folded = collections.Counter(fold(key) for key in keys)
    for renamed in report.renamed:
        if renamed["why"] == RENAMED["is taken"] and counts[renamed["old"]] > 1:
            renamed["why"] = ("an entry before it in this file has this very key (BibTeX and "
                              "biber would use only the first)")
        elif (renamed["why"] == RENAMED["is taken in another case"]
              and folded[fold(renamed["old"])] > 1):
            renamed["why"] = ("an entry before it in this file has this key in another case "
                              "(BibTeX would use only the first)")


def _keep_comments(lib: Library, comments: list[tuple[int, str]], lines: list[int],
                   papers: list[int], top: int) -> None:
    """Each ``@comment`` block as written goes with the entry after it (``before``), or
    after the last entry (``after``), so that the export writes it in place; on an
    entry that merged into a paper already there it is not kept."""
    kept: dict[tuple[int, str], list[str]] = {}
    for line, text in comments:
        at = bisect.bisect_left(lines, line)
        if papers:
            place = (papers[at], "before") if at < len(papers) else (papers[-1], "after")
            kept.setdefault(place, []).append(text)
    for (pid, where), texts in kept.items():
        if pid > top:
            papers_table.set_bib_source_part(lib.db, pid, where,
                                             json.dumps(texts, ensure_ascii=False))

"""Importing .bib files through ``paperdesk import`` (recognised by content).

Each file goes in whole, in one transaction: entries that cannot be read are
reported with their line numbers and skipped, the rest imports. A file with no
readable entry at all is an error and changes nothing. An entry that is a
paper already in the library (same arXiv id or DOI, or the same normalised
title with a matching abstract) merges into it and fills in what it lacked;
its citation key is kept when no other paper has it.
"""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import bibtexparser

from paperdesk.core import changes as ch
from paperdesk.core import file_report, schema, store
from paperdesk.core.bibtex_fields import BibPaper, read_entry, resolve
from paperdesk.core.citekey import KeyAllocator, freeze, valid_key
from paperdesk.core.clock import now
from paperdesk.core.decode import decode_text, sniff_text
from paperdesk.core.errors import BibtexError, PaperDeskError
from paperdesk.core.file_report import IMPORTED, FileReport
from paperdesk.core.idlists import select_in
from paperdesk.core.jobs import CancelFlag, Progress, cancellable_sql, check_cancel, no_progress
from paperdesk.core.matcher import PaperMatcher
from paperdesk.core.tags import tag_key, tag_name
from paperdesk.core.text import title_key

# bibtexparser logs each broken block on several lines; the import reports
# them itself, one line each with its line number, so its log stays quiet.
logging.getLogger("bibtexparser").addHandler(logging.NullHandler())
logging.getLogger("bibtexparser").propagate = False

if TYPE_CHECKING:
    from paperdesk.core.library import Library

# "@article{key," or "@string{": a Java "@Override" or "@Test(" is not BibTeX.
_ENTRY_START = re.compile(r"(?mi)^[ \t]*@[ \t]*(?:[a-z]+[ \t]*[{(][ \t]*[^\n,={}()\"#%']+"
                          r",|(?:string|preamble|comment)[ \t]*[{(])")


def sniff(data: bytes) -> bool:
    """A .bib file: an ``@type{key,`` at the start of a line, near the top or after a
    long preamble of comments (digests are recognised first, by their header)."""
    return bool(_ENTRY_START.search(sniff_text(data, 65536))
                or (len(data) > 65536 and _ENTRY_START.search(sniff_text(data))))


def _first_line(error: object) -> str:
    text = (getattr(error, "abort_reason", None) or str(error)).strip().splitlines()
    return text[0].rstrip(": ").replace("`", "") if text else "not valid BibTeX"


def parse(text: str, name: str) -> tuple[list[BibPaper], list[str], int]:
    """The readable entries, the warnings, and how many blocks failed."""
    library = bibtexparser.parse_string(text, parse_stack=[])
    strings: dict[str, str] = {}
    for block in library.strings:
        strings[block.key.lower()] = resolve(str(block.value), strings)[0]
    warnings: list[str] = []
    papers: list[BibPaper] = []
    entries = list(library.entries)
    failed = 0
    for block in library.failed_blocks:
        duplicate = getattr(block, "ignore_error_block", None)
        if isinstance(duplicate, bibtexparser.model.Entry):
            entries.append(duplicate)
            continue
        failed += 1
        warnings.append(f"{name}: line {block.start_line + 1}: skipped an entry that cannot be "
                        f"read ({_first_line(getattr(block, 'error', ''))})")
    entries.sort(key=lambda e: e.start_line)
    for entry in entries:
        line = entry.start_line + 1
        try:
            paper = read_entry(entry.entry_type, entry.key, line,
                               [(f.key, str(f.value)) for f in entry.fields], strings)
        except RecursionError:  # LaTeX commands nested thousands deep
            failed += 1
            warnings.append(f"{name}: line {line}: skipped entry {entry.key[:40]!r}: its "
                            "LaTeX is nested too deeply to read")
            continue
        warnings.extend(f"{name}: line {line}: {w}" for w in paper.warnings)
        if not paper.title:
            failed += 1
            warnings.append(f"{name}: line {line}: entry {entry.key!r} has no title; skipped")
            continue
        papers.append(paper)
    return papers, warnings, failed


def import_bib(lib: Library, path: Path, data: bytes, progress: Progress = no_progress,
               cancel: CancelFlag | None = None) -> FileReport:
    report = FileReport(str(path), path.name, file_report.ERROR, kind="bibtex")
    text, _encoding, decode_warnings = decode_text(data, path.name)
    progress(0.05, f"Reading {path.name}")
    papers, warnings, failed = parse(text, path.name)
    report.warnings = list(decode_warnings) + warnings
    report.entries = len(papers)
    if not papers:
        detail = f" ({warnings[0].split(': ', 1)[1]})" if warnings else ""
        raise BibtexError(f"{path.name}: no BibTeX entry could be read{detail}; "
                          "nothing was imported")
    check_cancel(cancel)
    progress(0.3, f"Read {len(papers)} entries from {path.name}")
    with lib.write(f"Import {path.name}") as w, cancellable_sql(lib.db.conn, cancel):
        _Writer(lib, report, progress, cancel).write(papers)
        w.changes = file_report.file_changes(report, (ch.TAGS, ch.NOTES))
    report.status = IMPORTED
    if failed:
        report.warnings.append(f"{path.name}: {failed} of {failed + len(papers)} entries "
                               "were skipped")
    return report


class _Writer:
    """Matches and writes the entries of one file inside its transaction."""

    def __init__(self, lib: Library, report: FileReport, progress: Progress,
                 cancel: CancelFlag | None) -> None:
        self.db, self.report, self.progress, self.cancel = lib.db, report, progress, cancel
        self.allocator = KeyAllocator(self.db)
        self.file_keys: list[int] = []
        self.stamp = now()

    def write(self, papers: list[BibPaper]) -> None:
        db, report = self.db, self.report
        matcher = PaperMatcher(db, (title_key(p.title) for p in papers), identifiers=True)
        next_id = db.execute("SELECT coalesce(max(id), 0) + 1 FROM papers").fetchone()[0]
        first_new = next_id
        rows: list[list[Any]] = []
        merges: list[tuple[int, BibPaper]] = []
        tags: list[tuple[int, str]] = []
        notes: list[tuple[int, str]] = []
        touched: list[int] = []
        for n, paper in enumerate(papers):
            check_cancel(self.cancel)  # each entry costs a bounded number of comparisons
            if n % 500 == 0:
                self.progress(0.3 + 0.4 * n / len(papers), f"Matching {report.name}")
            key = title_key(paper.title)
            pid = matcher.find(key, paper.abstract, paper.arxiv_id, paper.doi)
            if pid is None:
                pid, next_id = next_id, next_id + 1
                matcher.add(key, pid, paper.abstract, paper.arxiv_id, paper.doi)
                rows.append(self._new_row(pid, paper, key))
            else:
                report.merged += 1
                if pid >= first_new:
                    _fill_row(rows[pid - first_new], paper)
                else:
                    merges.append((pid, paper))
            touched.append(pid)
            tags.extend((pid, t) for t in paper.tags)
            if paper.note:
                notes.append((pid, paper.note))
        check_cancel(self.cancel)
        self.progress(0.75, f"Writing {len(rows)} new papers")
        insert = ("INSERT INTO papers (id, title, abstract, title_key, authors, author_count, "
                  "organization, published, year, arxiv_id, doi, url, citekey, bib_type, "
                  "bib_fields, added, modified) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
        if len(rows) >= file_report.BULK_THRESHOLD:
            with store.bulk_index(db):
                db.conn.executemany(insert, rows)
                self._extras(merges, tags, notes)
            refresh = {pid for pid, _ in merges} | {pid for pid, _ in tags + notes}
            _reindex(db, refresh)
        else:
            db.conn.executemany(insert, rows)
            self._extras(merges, tags, notes)
        freeze(db, self.file_keys)
        report.new_papers = len(rows)
        report.paper_ids = list(dict.fromkeys(touched))

    def _new_row(self, pid: int, paper: BibPaper, key: str) -> list[Any]:
        fields = {"title": paper.title, "authors": paper.authors, "year": paper.year,
                  "organization": paper.organization}
        citekey = None
        if valid_key(paper.key) and self.allocator.reserve(paper.key):
            citekey = paper.key
            self.file_keys.append(pid)  # already in the user's files: frozen
        else:
            citekey = self.allocator.take(fields, with_title=False)
            why = "is taken" if valid_key(paper.key) else "is not a usable key"
            self.report.warnings.append(f"{self.report.name}: line {paper.line}: key "
                                        f"{paper.key!r} {why}; the paper gets {citekey!r}")
        names = [a for a in paper.authors if a.lower() != "others"]
        count = len(names) if names and len(names) == len(paper.authors) else None
        authors = json.dumps(paper.authors, ensure_ascii=False)
        return [pid, paper.title, paper.abstract, key, authors, count, paper.organization,
                paper.published, paper.year, paper.arxiv_id, paper.doi, paper.url, citekey,
                paper.bib_type,
                json.dumps(paper.extra, ensure_ascii=False) if paper.extra else None,
                self.stamp, self.stamp]

    def _extras(self, merges: list[tuple[int, BibPaper]], tags: list[tuple[int, str]],
                notes: list[tuple[int, str]]) -> None:
        db = self.db
        for pid, paper in merges:
            _fill_existing(db, pid, paper, self.stamp)
        names: dict[str, str] = {}
        pairs: list[tuple[int, str]] = []
        for pid, name in tags:
            try:
                clean = tag_name(name)
            except PaperDeskError as exc:
                self.report.warnings.append(f"{self.report.name}: tag skipped: {exc}")
                continue
            names.setdefault(tag_key(clean), clean)
            pairs.append((pid, tag_key(clean)))
        if pairs:
            db.conn.executemany("INSERT OR IGNORE INTO tags (name, name_key) VALUES (?, ?)",
                                [(name, key) for key, name in names.items()])
            ids = dict(select_in(db, "SELECT name_key, id FROM tags WHERE name_key IN ({marks})",
                                 list(names)))
            db.conn.executemany("INSERT OR IGNORE INTO paper_tags (paper_id, tag_id) "
                                "VALUES (?, ?)", [(pid, ids[key]) for pid, key in pairs])
        fresh = [(pid, text, self.stamp, self.stamp) for pid, text in dict.fromkeys(notes)
                 if not db.execute("SELECT 1 FROM notes WHERE paper_id = ? AND text = ?",
                                   [pid, text]).fetchone()]
        db.conn.executemany("INSERT INTO notes (paper_id, text, created, updated) "
                            "VALUES (?, ?, ?, ?)", fresh)


def _fill_row(row: list[Any], paper: BibPaper) -> None:
    """A paper twice in one file: the pending row takes what it lacked."""
    for index, value in ((2, paper.abstract), (6, paper.organization), (7, paper.published),
                         (8, paper.year), (9, paper.arxiv_id), (10, paper.doi), (11, paper.url)):
        if not row[index] and value:
            row[index] = value
    if row[4] == "[]" and paper.authors:
        row[4] = json.dumps(paper.authors, ensure_ascii=False)


def _fill_existing(db: Any, pid: int, paper: BibPaper, stamp: str) -> None:
    """Fill what an existing paper lacked; a year from the file beats an inferred one."""
    row = db.execute("SELECT abstract, authors, organization, published, year, year_inferred, "
                     "arxiv_id, doi, url, bib_type, bib_fields FROM papers WHERE id = ?",
                     [pid]).fetchone()
    (abstract, authors, organization, published, year, inferred, arxiv_id, doi, url,
     bib_type, bib_fields) = row
    if paper.year and (year is None or (inferred and paper.year != year)):
        year, inferred = paper.year, 0
        if paper.published:
            published = paper.published
        elif published:
            published = f"{paper.year:04d}{published[4:]}"
    elif inferred and paper.year == year:
        inferred = 0
    extra = json.loads(bib_fields) if bib_fields else {}
    for name, value in paper.extra.items():
        extra.setdefault(name, value)
    db.execute(
        "UPDATE papers SET abstract = ?, authors = ?, organization = ?, published = ?, "
        "year = ?, year_inferred = ?, arxiv_id = ?, doi = ?, url = ?, bib_type = ?, "
        "bib_fields = ?, modified = ? WHERE id = ?",
        [abstract or paper.abstract,
         authors if authors != "[]" or not paper.authors
         else json.dumps(paper.authors, ensure_ascii=False),
         organization or paper.organization, published or paper.published, year, inferred,
         arxiv_id or paper.arxiv_id, doi or paper.doi, url or paper.url,
         bib_type or paper.bib_type, json.dumps(extra, ensure_ascii=False) if extra else None,
         stamp, pid])


def _reindex(db: Any, ids: set[int]) -> None:
    """Rebuild the full-text rows of papers changed while the triggers were off."""
    if not ids:
        return
    db.execute("CREATE TEMP TABLE IF NOT EXISTS bibtex_reindex (id INTEGER PRIMARY KEY)")
    db.execute("DELETE FROM temp.bibtex_reindex")
    db.conn.executemany("INSERT INTO temp.bibtex_reindex (id) VALUES (?)", [(i,) for i in ids])
    for statement in schema.reindex_statements(
            "papers p WHERE p.id IN (SELECT id FROM temp.bibtex_reindex)"):
        db.execute(statement)


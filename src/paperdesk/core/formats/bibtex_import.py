"""Importing .bib files through ``paperdesk import`` (recognised by content).

Each file goes in whole, in one transaction: entries that cannot be read are
reported with their line numbers and skipped, the rest imports, with or without
a title. A file with no readable entry at all is an error and changes nothing.

Nothing merges silently (see ``_Writer``): entries of one file never merge with
each other, and an entry merges into a paper already in the library only on the
same DOI or arXiv id (or as the very same entry); every merge is listed in the
report as ``key -> paper (reason)``, every skipped entry with its line and
reason. Look-alikes become duplicate candidates for review. Each entry keeps its
fields as written (``core/areas/bibtex_source.py``); its key is kept when no other
paper has it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import bibtexparser

from paperdesk.core.areas.bibtex_source import entry_sha, make_source
from paperdesk.core.areas.citekey import KeyAllocator, ascii_text, freeze, last_name
from paperdesk.core.areas.duplicates import note_new
from paperdesk.core.areas.tags import tag_key, tag_name
from paperdesk.core.db import changes as ch
from paperdesk.core.db import schema, store
from paperdesk.core.db.idlists import select_in
from paperdesk.core.formats import file_report
from paperdesk.core.formats.file_report import IMPORTED, FileReport
from paperdesk.core.model.bibtex_fields import BibPaper, read_entry, resolve
from paperdesk.core.model.clock import now
from paperdesk.core.model.decode import decode_text, sniff_text
from paperdesk.core.model.errors import BibtexError, PaperDeskError
from paperdesk.core.model.jobs import (
    CancelFlag,
    Progress,
    cancellable_sql,
    check_cancel,
    no_progress,
)
from paperdesk.core.model.text import title_key

# bibtexparser logs each broken block on several lines; the import reports
# them itself, one line each with its line number, so its log stays quiet.
logging.getLogger("bibtexparser").addHandler(logging.NullHandler())
logging.getLogger("bibtexparser").propagate = False

if TYPE_CHECKING:
    from paperdesk.core.library import Library

# "@article{key," or "@string{": a Java "@Override" or "@Test(" is not BibTeX.
_ENTRY_START = re.compile(r"(?mi)^[ \t]*@[ \t]*(?:[a-z]+[ \t]*[{(][ \t]*[^\n,={}()\"#%']+"
                          r"\s*,|(?:string|preamble|comment)[ \t]*[{(])")


def sniff(data: bytes) -> bool:
    """A .bib file: an ``@type{key,`` at the start of a line, near the top or after a
    long preamble of comments (digests are recognised first, by their header)."""
    return bool(_ENTRY_START.search(sniff_text(data, 65536))
                or (len(data) > 65536 and _ENTRY_START.search(sniff_text(data))))


def _first_line(error: object) -> str:
    text = (getattr(error, "abort_reason", None) or str(error)).strip().splitlines()
    return text[0].rstrip(": ").replace("`", "") if text else "not valid BibTeX"


@dataclass
class Parsed:
    papers: list[BibPaper]
    warnings: list[str]
    failed: int
    skipped: list[dict[str, Any]] = field(default_factory=list)
    preambles: list[str] = field(default_factory=list)
    strings: list[tuple[str, str, str]] = field(default_factory=list)  # name, value, @word


_TYPE = re.compile(r"@\s*([^\s{(]+)")
_COMMENT_TYPES = re.compile(r"(?mi)^([ \t]*@[ \t]*)(comment[a-z]+[ \t]*[{(][^,\n]*,)")
_MASK = "paperdeskmasked"


def parse(text: str, name: str) -> tuple[list[BibPaper], list[str], int]:
    """The readable entries that have a title, the warnings, and how many blocks
    failed or had no title (the import itself takes entries without a title too:
    ``parse_file``)."""
    parsed = parse_file(text, name)
    titled = [p for p in parsed.papers if p.title]
    return titled, parsed.warnings, parsed.failed + len(parsed.papers) - len(titled)


def strip_entry_comments(text: str) -> str:
    """The text with ``% ...`` comments between the fields of an entry blanked out
    (biber reads them; bibtexparser would take the comment for a field name).
    Values, and everything outside entries, are left as they are; lines keep their
    numbers."""
    if "%" not in text:
        return text
    out: list[str] = []
    depth, quoted, i, n = 0, False, 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\":
            out.append(text[i:i + 2])
            i += 2
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        elif ch == '"' and depth == 1:
            quoted = not quoted
        elif ch == "%" and depth == 1 and not quoted:
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        elif ch == "@" and depth == 0:
            quoted = False
        out.append(ch)
        i += 1
    return "".join(out)


def readable(text: str) -> str:
    """The text as bibtexparser should see it: ``%`` comments between fields blanked,
    and "@commented{key," (jurabib's type: an entry to BibTeX, a comment to
    bibtexparser, which takes any type starting with "comment" for one) masked."""
    text = _COMMENT_TYPES.sub(lambda m: m.group(1) + _MASK + m.group(2), text)
    return strip_entry_comments(text)


# A name BibTeX accepts for a @string macro: no leading digit, no space or special.
_MACRO_NAME = re.compile(r"[^\d\s\"#%'(),={}][^\s\"#%'(),={}]*\Z")


def parse_file(text: str, name: str) -> Parsed:
    """Every readable entry (titled or not), with the file's definitions."""
    library = bibtexparser.parse_string(readable(text), parse_stack=[])
    strings: dict[str, str] = {}
    out = Parsed([], [], 0)
    for block in library.blocks:
        if isinstance(block, bibtexparser.model.String) and not _MACRO_NAME.match(block.key):
            # BibTeX itself rejects it, and it would go out with every export.
            out.failed += 1
            reason = f"defines a @string with an unusable name {block.key[:40]!r}"
            out.skipped.append({"line": block.start_line + 1, "key": None, "reason": reason})
            out.warnings.append(f"{name}: line {block.start_line + 1}: skipped a block that "
                                f"{reason}")
        elif isinstance(block, bibtexparser.model.String):
            strings[block.key.lower()] = resolve(str(block.value), strings)[0]
            written = _TYPE.match(block.raw or "")
            out.strings.append((block.key, str(block.value),
                                written.group(1) if written else "string"))
        elif isinstance(block, bibtexparser.model.Preamble):
            out.preambles.append(str(block.value))
    entries = list(library.entries)
    for block in library.failed_blocks:
        duplicate = getattr(block, "ignore_error_block", None)
        if isinstance(duplicate, bibtexparser.model.Entry):
            entries.append(duplicate)
            continue
        out.failed += 1
        reason = f"cannot be read ({_first_line(getattr(block, 'error', ''))})"
        match = re.match(r"\s*@\s*\w+\s*[{(]\s*([^,\s]*)", block.raw or "")
        out.skipped.append({"line": block.start_line + 1,
                            "key": match.group(1) if match else None, "reason": reason})
        out.warnings.append(f"{name}: line {block.start_line + 1}: skipped an entry that "
                            f"{reason}")
    entries.sort(key=lambda e: e.start_line)
    for entry in entries:
        line = entry.start_line + 1
        written = _TYPE.match(entry.raw or "")
        raw_type = written.group(1) if written else entry.entry_type
        try:
            paper = read_entry(entry.entry_type.removeprefix(_MASK), entry.key, line,
                               [(f.key, str(f.value)) for f in entry.fields], strings,
                               raw_type=raw_type.removeprefix(_MASK))
        except RecursionError:  # LaTeX commands nested thousands deep
            out.failed += 1
            reason = "its LaTeX is nested too deeply to read"
            out.skipped.append({"line": line, "key": entry.key, "reason": reason})
            out.warnings.append(f"{name}: line {line}: skipped entry {entry.key[:40]!r}: "
                                f"{reason}")
            continue
        out.warnings.extend(f"{name}: line {line}: {w}" for w in paper.warnings)
        out.papers.append(paper)
    return out


def import_bib(lib: Library, path: Path, data: bytes, progress: Progress = no_progress,
               cancel: CancelFlag | None = None) -> FileReport:
    report = FileReport(str(path), path.name, file_report.ERROR, kind="bibtex")
    text, _encoding, decode_warnings = decode_text(data, path.name)
    progress(0.05, f"Reading {path.name}")
    parsed = parse_file(text, path.name)
    papers = parsed.papers
    report.warnings = list(decode_warnings) + parsed.warnings
    report.skipped = parsed.skipped
    report.entries = len(papers)
    if not papers and (parsed.strings or parsed.preambles) and not parsed.failed:
        report.warnings.append(f"{path.name}: no entries; its {len(parsed.strings)} @string "
                               f"and {len(parsed.preambles)} @preamble definitions are kept "
                               "and exported with every export")
    elif not papers:
        detail = f" ({parsed.warnings[0].split(': ', 1)[1]})" if parsed.warnings else ""
        raise BibtexError(f"{path.name}: no BibTeX entry could be read{detail}; "
                          "nothing was imported")
    check_cancel(cancel)
    progress(0.3, f"Read {len(papers)} entries from {path.name}")
    with lib.write(f"Import {path.name}") as w, cancellable_sql(lib.db.conn, cancel):
        top = lib.db.execute("SELECT coalesce(max(id), 0) FROM papers").fetchone()[0]
        file_id = lib.db.execute(
            "INSERT INTO bib_files (name, sha256, preambles, strings, imported_at) "
            "VALUES (?, ?, ?, ?, ?)",
            [path.name, hashlib.sha256(data).hexdigest(), json.dumps(parsed.preambles),
             json.dumps(parsed.strings), now()]).lastrowid
        _Writer(lib, report, progress, cancel, file_id).write(papers)
        report.likely_duplicates = note_new(lib, [p for p in report.paper_ids if p > top])
        w.changes = file_report.file_changes(report, (ch.TAGS,))
    report.status = IMPORTED
    if parsed.failed:
        report.warnings.append(f"{path.name}: {parsed.failed} of {parsed.failed + len(papers)} "
                               "entries were skipped")
    return report


# Types that say nothing about the kind of work (a preprint may be cited as any of them).
_LOOSE_TYPES = frozenset({None, "misc", "online", "electronic", "www", "unpublished",
                          "preprint", "techreport", "report"})


class _Writer:
    """Matches and writes the entries of one file inside its transaction.

    Entries of the file never merge with each other. An entry merges into a paper
    that was in the library before only when it is the same entry (same type, key
    and fields), or has the paper's DOI or version-less arXiv id, or its citation
    key with the same title and year (a file exported from this library), and
    neither type, year nor authors contradict it. Anything else that looks alike
    is left to the duplicate review (``duplicates.note_new``).
    """

    def __init__(self, lib: Library, report: FileReport, progress: Progress,
                 cancel: CancelFlag | None, file_id: int) -> None:
        self.lib, self.db, self.report = lib, lib.db, report
        self.progress, self.cancel, self.file_id = progress, cancel, file_id
        self.by_arxiv: dict[str, int] = {}
        self.by_doi: dict[str, int] = {}
        self.by_sha: dict[str, int] = {}
        self.by_key: dict[str, tuple[int, str, int | None]] = {}
        self.taken: set[int] = set()
        self.allocator = KeyAllocator(self.db)
        self.file_keys: list[int] = []
        self.stamp = now()

    def _load(self, papers: list[BibPaper]) -> None:
        for pid, arxiv, doi in self.db.execute(
                "SELECT id, arxiv_id, doi FROM papers WHERE (arxiv_id IS NOT NULL "
                "OR doi IS NOT NULL) AND deleted_at IS NULL ORDER BY id DESC"):
            if arxiv:
                self.by_arxiv[_arxiv_key(arxiv)] = pid
            if doi:
                self.by_doi[doi.lower()] = pid
        keys = sorted({p.key for p in papers if p.key})
        for i in range(0, len(keys), 900):
            part = keys[i:i + 900]
            for pid, key, title, year, source in self.db.execute(
                    f"SELECT id, citekey, title_key, year, bib_source FROM papers WHERE citekey "
                    f"IN ({','.join('?' * len(part))}) AND deleted_at IS NULL", part):
                if source:
                    self.by_sha[json.loads(source).get("sha", "")] = pid
                self.by_key[key] = (pid, title, year)

    def _match(self, paper: BibPaper) -> tuple[int, str] | None:
        pid = self.by_sha.get(entry_sha(paper.raw_type, paper.key, paper.fields))
        if pid is not None and pid not in self.taken:
            self.taken.add(pid)
            return pid, "the same entry"
        found = []
        same = self.by_key.get(paper.key)
        if same and same[1] and same[1] == title_key(paper.title) and same[2] == paper.year:
            found.append((same[0], "same key, title and year"))
        if paper.doi and paper.doi.lower() in self.by_doi:
            found.append((self.by_doi[paper.doi.lower()], f"same DOI {paper.doi}"))
        if paper.arxiv_id and _arxiv_key(paper.arxiv_id) in self.by_arxiv:
            found.append((self.by_arxiv[_arxiv_key(paper.arxiv_id)],
                          f"same arXiv id {_arxiv_key(paper.arxiv_id)}"))
        for pid, reason in found:
            if pid in self.taken:
                continue  # another entry of this file went there: never two into one
            clash = self._contradiction(paper, pid)
            if clash is None:
                self.taken.add(pid)
                return pid, reason
            self.report.warnings.append(
                f"{self.report.name}: line {paper.line}: {paper.key!r} has the {reason[5:]} of "
                f"paper {pid} but {clash}; imported as a new paper for review")
        return None

    def _contradiction(self, paper: BibPaper, pid: int) -> str | None:
        bib_type, year, authors = self.db.execute(
            "SELECT bib_type, year, authors FROM papers WHERE id = ?", [pid]).fetchone()
        if (bib_type not in _LOOSE_TYPES and paper.bib_type not in _LOOSE_TYPES
                and bib_type != paper.bib_type):
            return f"is @{paper.bib_type}, not @{bib_type}"
        if year and paper.year and year != paper.year:
            return f"is from {paper.year}, not {year}"
        theirs = {_surname(a) for a in json.loads(authors or "[]")} - {"", "others"}
        ours = {_surname(a) for a in paper.authors} - {"", "others"}
        if theirs and ours and not theirs & ours:
            return "has other authors"
        return None

    def write(self, papers: list[BibPaper]) -> None:
        db, report = self.db, self.report
        self._load(papers)
        next_id = db.execute("SELECT coalesce(max(id), 0) + 1 FROM papers").fetchone()[0]
        rows: list[list[Any]] = []
        merges: list[tuple[int, BibPaper]] = []
        tags: list[tuple[int, str]] = []
        touched: list[int] = []
        for n, paper in enumerate(papers):
            check_cancel(self.cancel)  # each entry costs a bounded number of comparisons
            if n % 500 == 0:
                self.progress(0.3 + 0.4 * n / len(papers), f"Matching {report.name}")
            found = self._match(paper)
            if found is None:
                pid, next_id = next_id, next_id + 1
                rows.append(self._new_row(pid, paper))
                tags.extend((pid, t) for t in paper.tags)
            else:
                pid, reason = found
                report.merged += 1
                merges.append((pid, paper))
                report.merges.append({"key": paper.key, "line": paper.line, "paper_id": pid,
                                      "reason": reason})
                if reason != "the same entry":
                    tags.extend((pid, t) for t in paper.tags)
            touched.append(pid)
        check_cancel(self.cancel)
        self.progress(0.75, f"Writing {len(rows)} new papers")
        insert = ("INSERT INTO papers (id, title, abstract, title_key, authors, author_count, "
                  "organization, published, year, arxiv_id, doi, url, citekey, bib_type, "
                  "bib_fields, bib_source, added, modified) "
                  "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
        if len(rows) >= file_report.BULK_THRESHOLD:
            with store.bulk_index(db):
                db.conn.executemany(insert, rows)
                self._extras(merges, tags)
            _reindex(db, {pid for pid, _ in merges} | {pid for pid, _ in tags})
        else:
            db.conn.executemany(insert, rows)
            self._extras(merges, tags)
        freeze(db, self.file_keys)
        for merge in report.merges:
            key = db.execute("SELECT citekey FROM papers WHERE id = ?",
                             [merge["paper_id"]]).fetchone()[0]
            merge["citekey"] = key
        report.new_papers = len(rows)
        report.paper_ids = list(dict.fromkeys(touched))

    def _new_row(self, pid: int, paper: BibPaper) -> list[Any]:
        fields = {"title": paper.title, "authors": paper.authors, "year": paper.year,
                  "organization": paper.organization}
        citekey = None
        if bib_key_ok(paper.key) and self.allocator.reserve(paper.key):
            citekey = paper.key
            self.file_keys.append(pid)  # already in the user's files: frozen
        else:
            citekey = self.allocator.take(fields, with_title=False)
            why = "is taken" if bib_key_ok(paper.key) else "is not a usable key"
            self.report.warnings.append(f"{self.report.name}: line {paper.line}: key "
                                        f"{paper.key!r} {why}; the paper gets {citekey!r}")
        names = [a for a in paper.authors if a.lower() != "others"]
        count = len(names) if names and len(names) == len(paper.authors) else None
        authors = json.dumps(paper.authors, ensure_ascii=False)
        seen = {"title": paper.title, "authors": paper.authors,
                "organization": paper.organization, "year": paper.year,
                "published": paper.published, "arxiv_id": paper.arxiv_id, "doi": paper.doi,
                "url": paper.url, "abstract": paper.abstract}
        source = make_source(paper.raw_type, paper.key, paper.fields, paper.names, self.file_id,
                             seen, [tag_name(t) for t in paper.tags if _tag_ok(t)])
        return [pid, paper.title, paper.abstract, title_key(paper.title), authors, count,
                paper.organization, paper.published, paper.year, paper.arxiv_id, paper.doi,
                paper.url, citekey, paper.bib_type,
                json.dumps(paper.extra, ensure_ascii=False) if paper.extra else None,
                source, self.stamp, self.stamp]

    def _extras(self, merges: list[tuple[int, BibPaper]], tags: list[tuple[int, str]]) -> None:
        db = self.db
        for pid, paper in merges:
            _fill_existing(db, pid, paper, self.stamp, self.file_id, self.allocator)
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


def _tag_ok(name: str) -> bool:
    try:
        tag_name(name)
    except PaperDeskError:
        return False
    return True


def _surname(name: str) -> str:
    return ascii_text(last_name(name)).lower().strip()


# BibTeX and biber read a key up to the first comma or white space; braces, quotes
# and these few would break the entry or the \cite.
_BAD_KEY = re.compile(r"[\s,{}()\"#%'=\\~]")


def bib_key_ok(key: str) -> bool:
    """Any key BibTeX and biber accept is kept as it is (``*``, ``?``, long keys...)."""
    return bool(key) and not _BAD_KEY.search(key)


def _arxiv_key(arxiv_id: str) -> str:
    return re.sub(r"v\d+$", "", arxiv_id.strip().lower())


def _fill_existing(db: Any, pid: int, paper: BibPaper, stamp: str, file_id: int,
                   allocator: KeyAllocator) -> None:
    """Fill what an existing paper lacked; a year from the file beats an inferred one.

    A paper that came from no .bib file before takes this entry as its source and,
    when it is free, the entry's key.
    """
    row = db.execute("SELECT abstract, authors, organization, published, year, year_inferred, "
                     "arxiv_id, doi, url, bib_type, bib_fields, bib_source, citekey, title "
                     "FROM papers WHERE id = ?", [pid]).fetchone()
    (abstract, authors, organization, published, year, inferred, arxiv_id, doi, url,
     bib_type, bib_fields, bib_source, citekey, title) = row
    if bib_source and json.loads(bib_source).get("sha") == entry_sha(
            paper.raw_type, paper.key, paper.fields):
        return  # the same entry again: nothing to add
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
    values = {"abstract": abstract or paper.abstract,
              "authors": json.loads(authors or "[]") or paper.authors,
              "organization": organization or paper.organization,
              "published": published or paper.published, "year": year,
              "arxiv_id": arxiv_id or paper.arxiv_id, "doi": doi or paper.doi,
              "url": url or paper.url, "title": title}
    adopted = False
    if not bib_source:
        if paper.key != citekey and bib_key_ok(paper.key) and allocator.reserve(paper.key):
            citekey, adopted = paper.key, True
        tags = [r[0] for r in db.execute("SELECT t.name FROM paper_tags x JOIN tags t ON "
                                         "t.id = x.tag_id WHERE x.paper_id = ?", [pid])]
        tags += [t for t in paper.tags if _tag_ok(t)]
        seen = {**values, "title": paper.title or title}
        bib_source = make_source(paper.raw_type, paper.key, paper.fields, paper.names, file_id,
                                 seen, tags)
        values["title"] = seen["title"]
    db.execute(
        "UPDATE papers SET abstract = ?, authors = ?, organization = ?, published = ?, "
        "year = ?, year_inferred = ?, arxiv_id = ?, doi = ?, url = ?, bib_type = ?, "
        "bib_fields = ?, bib_source = ?, citekey = ?, modified = ? WHERE id = ?",
        [values["abstract"], json.dumps(values["authors"], ensure_ascii=False),
         values["organization"], values["published"], year, inferred, values["arxiv_id"],
         values["doi"], values["url"], bib_type or paper.bib_type,
         json.dumps(extra, ensure_ascii=False) if extra else None, bib_source, citekey,
         stamp, pid])
    if adopted:  # the key is in the user's files already: it never changes
        db.execute("UPDATE papers SET citekey_frozen = 1 WHERE id = ?", [pid])


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


"""Writing the entries of one .bib file inside its import's transaction.

Entries come one at a time from the reader (``core/bibtex/bib_read.py``) and are
matched and written in chunks of ``CHUNK``: new papers with ``executemany``, under
``store.bulk_index`` when the file is large, so that memory stays bounded by the
chunk and not the file. Nothing merges silently (see ``BibWriter``).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from paperdesk.core.bibtex.bibtex_fields import BibPaper
from paperdesk.core.bibtex.bibtex_source import entry_sha, make_source, read_stored, source_sha
from paperdesk.core.bibtex.citekey import KeyAllocator, ascii_text, last_name
from paperdesk.core.db import ids, papers_table, store, tags_table
from paperdesk.core.db.database import Database, select_in
from paperdesk.core.importing import file_report
from paperdesk.core.importing.bib_records import Entry, authors_of, entry_sha_of, paper_of, tag_ok
from paperdesk.core.importing.file_report import RENAMED, FileReport
from paperdesk.core.model.clock import now
from paperdesk.core.model.errors import PaperDeskError
from paperdesk.core.model.jobs import CancelFlag, Progress, check_cancel
from paperdesk.core.model.text import tag_key, tag_name

if TYPE_CHECKING:
    from concurrent.futures import Future

    from paperdesk.core.library import Library

# Indexes a large .bib import builds at its end rather than row by row: titles and
# keys come in any order. Its papers have no upvotes and a few dozen years, which
# their indexes take in order (set aside as well, 0.15 s more for 100,000 entries).
_SET_ASIDE = ("papers_title_key", "papers_citekey_fold", "papers_citekey_any")

# Types that say nothing about the kind of work (a preprint may be cited as any of them).
_LOOSE_TYPES = frozenset({None, "misc", "online", "electronic", "www", "unpublished",
                          "preprint", "techreport", "report"})


class BibWriter:
    """Matches and writes the entries of one file inside its transaction.

    Entries of the file never merge with each other. An entry merges into a paper
    that was in the library before only when it is the same entry (same type, key
    and fields), or has the paper's DOI or version-less arXiv id, or its citation
    key with the same title and year (a file exported from this library), and
    neither type, year nor authors contradict it. Anything else that looks alike
    is left to the duplicate review (``duplicates.note_new``).
    """

    CHUNK = 2000  # entries matched and written at a time

    def __init__(self, lib: Library, report: FileReport, progress: Progress,
                 cancel: CancelFlag | None, file_id: int, expected: int = 0) -> None:
        self.lib, self.db, self.report = lib, lib.db, report
        self.progress, self.cancel, self.file_id = progress, cancel, file_id
        self.file_json = b"%d" % file_id  # JSON of the id, between an entry's source parts
        self.expected = expected
        self.by_arxiv: dict[str, int] = {}
        self.by_doi: dict[str, int] = {}
        self.by_sha: dict[str, int] = {}
        # (a key two papers keep, as sharing two libraries may leave it: both)
        self.by_key: dict[str, list[tuple[int, str, int | None]]] = {}
        self.taken: set[int] = set()
        self.allocator = KeyAllocator(self.db, expected=expected)
        self.stamp = now()
        self.next_id = ids.first_free(self.db, "papers")  # never a deleted paper's id
        self.top = self.next_id - 1
        self.new = 0
        self.reindex: set[int] = set()  # papers of before, merged into or tagged
        self.annotate: set[int] = set()  # new papers tagged: their text rows are written
        self.touched: list[int] = []
        self.created: list[int] = []  # the papers this file added, in order
        self.bulk = False  # many new papers: see write()
        self.uid_after: dict[str, int] = {}  # papers_table._with_uids's, across chunks
        for pid, arxiv, doi in self.db.execute(
                "SELECT id, arxiv_id, doi FROM papers WHERE (arxiv_id IS NOT NULL "
                "OR doi IS NOT NULL) AND deleted_at IS NULL ORDER BY id DESC"):
            if arxiv:
                self.by_arxiv[_arxiv_key(arxiv)] = pid
            if doi:
                self.by_doi[doi.lower()] = pid

    def _load(self, papers: list[Entry]) -> None:
        """The papers that were in the library before, by the keys of these entries."""
        keys = sorted({p.key for p in papers if p.key})
        for i in range(0, len(keys), 900):
            part = keys[i:i + 900]
            for pid, key, title, year, source in self.db.execute(
                    f"SELECT id, citekey, title_key, year, bib_source FROM papers WHERE citekey "
                    f"IN ({','.join('?' * len(part))}) AND deleted_at IS NULL AND id <= ?",
                    [*part, self.top]):
                if source:
                    self.by_sha[source_sha(read_stored(source))] = pid
                self.by_key.setdefault(key, []).append((pid, title, year))

    def _match(self, paper: Entry) -> tuple[int, str] | None:
        pid = self.by_sha.get(entry_sha_of(paper)) if self.by_sha else None
        if pid is not None and pid not in self.taken:
            self.taken.add(pid)
            return pid, "the same entry"
        found = []
        for same in self.by_key.get(paper.key, ()):
            if same[1] and same[1] == paper.title_key and same[2] == paper.year:
                found.append((same[0], "same key, title and year"))
        # (papers of the library before: none when it was empty, and no lookup then)
        if self.by_doi and paper.doi and paper.doi.lower() in self.by_doi:
            found.append((self.by_doi[paper.doi.lower()], f"same DOI {paper.doi}"))
        if self.by_arxiv and paper.arxiv_id and _arxiv_key(paper.arxiv_id) in self.by_arxiv:
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

    def _contradiction(self, paper: Entry, pid: int) -> str | None:
        bib_type, year, authors = self.db.execute(
            "SELECT bib_type, year, authors FROM papers WHERE id = ?", [pid]).fetchone()
        if (bib_type not in _LOOSE_TYPES and paper.bib_type not in _LOOSE_TYPES
                and bib_type != paper.bib_type):
            return f"is @{paper.bib_type}, not @{bib_type}"
        if year and paper.year and year != paper.year:
            return f"is from {paper.year}, not {year}"
        theirs = {_surname(a) for a in json.loads(authors or "[]")} - {"", "others"}
        ours = {_surname(a) for a in authors_of(paper)} - {"", "others"}
        if theirs and ours and not theirs & ours:
            return "has other authors"
        return None

    def write(self, papers: Iterable[Entry]) -> None:
        """Match and write every entry; the caller's transaction holds them all."""
        db, report = self.db, self.report
        self.bulk = bulk = self.expected >= file_report.BULK_THRESHOLD
        # In bulk, each chunk's search rows are written from the values in hand, as the
        # chunk goes in: not read back from the rows (the whole file) at the end.
        with (store.bulk_index(db, incoming=self.expected, fts_written=True,
                               set_aside=_SET_ASIDE) if bulk
              else contextlib.nullcontext()), \
                (store.fts_hash(db, "papers_fts", store.FTS_LOAD_HASH) if bulk
                 else contextlib.nullcontext()):
            stream = iter(papers)
            # Each chunk's rows go in on a thread of their own while the next chunk is
            # matched: SQLite works without the interpreter's lock, so the matching
            # and the writing share the machine's cores (one connection, one
            # transaction: ``_Pipeline``).
            with _Pipeline() as pipeline:
                while chunk := list(itertools.islice(stream, self.CHUNK)):
                    self._write_chunk(chunk, pipeline)
        if bulk:
            _reindex(db, self.reindex)
            _reindex(db, self.annotate - self.reindex, text=False)
        for merge in report.merges:
            key = db.execute("SELECT citekey FROM papers WHERE id = ?",
                             [merge["paper_id"]]).fetchone()[0]
            merge["citekey"] = key
        report.new_papers = self.new
        report.paper_ids = list(dict.fromkeys(self.touched))
        report.created_ids = list(self.created)

    def _write_chunk(self, papers: list[Entry], pipeline: _Pipeline) -> None:
        report = self.report
        self._load(papers)
        rows: list[list[Any]] = []
        merges: list[tuple[int, Entry]] = []
        tags: list[tuple[int, str]] = []
        for paper in papers:
            check_cancel(self.cancel)  # each entry costs a bounded number of comparisons
            if len(self.touched) % 500 == 0:
                done = min(1.0, len(self.touched) / max(self.expected, 1))
                self.progress(0.3 + 0.4 * done, f"Matching {report.name}")
            found = self._match(paper)
            if found is None:
                pid, self.next_id = self.next_id, self.next_id + 1
                rows.append(self._new_row(pid, paper))
                self.created.append(pid)
                tags.extend((pid, t) for t in paper.tags)
            else:
                pid, reason = found
                report.merged += 1
                merges.append((pid, paper))
                report.merges.append({"key": paper.key, "line": paper.line, "paper_id": pid,
                                      "reason": reason})
                if reason != "the same entry":
                    tags.extend((pid, t) for t in paper.tags)
            self.touched.append(pid)
        if merges:  # what they change is read and written here, with nothing beside it
            pipeline.wait()
            for pid, entry in merges:
                _fill_existing(self.db, pid, paper_of(entry), self.stamp, self.file_id,
                               self.allocator)
        pipeline.then(self._store, rows, self._tag_pairs(tags))
        self.new += len(rows)
        self.reindex.update(pid for pid, _ in merges)
        self.reindex.update(pid for pid, _ in tags if pid <= self.top)
        self.annotate.update(pid for pid, _ in tags if pid > self.top)

    def _new_row(self, pid: int, paper: Entry) -> list[Any]:
        citekey, frozen = None, 0
        key = paper.key
        why = self.allocator.claim(key, cased=True) if bib_key_ok(key) else "is not a usable key"
        if why is None:
            citekey, frozen = key, 1  # already in the user's files: frozen
            if self.allocator.cased:  # kept beside a key that differs only in case
                self.report.warnings.append(
                    f"{self.report.name}: line {paper.line}: key {key!r} is kept beside "
                    "a key that differs from it only in case: biber cites both, but BibTeX "
                    "takes them for one key and cites only the first (\"Repeated entry\")")
            if "'" in key:
                self.report.warnings.append(
                    f"{self.report.name}: line {paper.line}: key {key!r} is kept, as BibTeX "
                    "cites it, but biber refuses a key with an apostrophe (and reads no "
                    "entry after it): biblatex documents need another key for this paper")
        else:
            fields = {"title": paper.title, "authors": authors_of(paper), "year": paper.year,
                      "organization": paper.organization}
            citekey = self.allocator.take(fields, with_title=False)
            self.report.warnings.append(f"{self.report.name}: line {paper.line}: key "
                                        f"{paper.key!r} {why}; the paper gets {citekey!r}")
            self.report.renamed.append({"line": paper.line, "old": paper.key, "new": citekey,
                                        "why": RENAMED[why]})
        return [pid, paper.title, paper.abstract, paper.title_key, paper.authors,
                paper.author_count, paper.organization, paper.published, paper.year,
                paper.arxiv_id, paper.doi, paper.url, citekey, frozen, paper.bib_type,
                paper.extra, paper.source_head + self.file_json + paper.source_tail,
                self.file_id, self.stamp, self.stamp]

    def _store(self, rows: list[list[Any]],
               tagged: tuple[dict[str, str], list[tuple[int, str]]]) -> None:
        """A chunk's new rows, their search rows, and its tags (on the pipeline's
        thread: SQL only, and what the tables record for the edit's undo)."""
        db = self.db
        papers_table.insert_from_bib(db, rows, self.uid_after)
        if self.bulk:
            store.fts_rows(db, [(row[0], row[1], row[2]) for row in rows])
        names, pairs = tagged
        if pairs:
            tags_table.add_tags(db, [(name, key) for key, name in names.items()])
            ids = dict(select_in(db, "SELECT name_key, id FROM tags WHERE name_key IN ({marks})",
                                 list(names)))
            tags_table.add_paper_tags(db, [(pid, ids[key]) for pid, key in pairs])

    def _tag_pairs(self, tags: list[tuple[int, str]]
                   ) -> tuple[dict[str, str], list[tuple[int, str]]]:
        """The chunk's tags as names by key and (paper, key) pairs; a name that cannot be
        a tag is reported and skipped."""
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
        return names, pairs


class _Pipeline:
    """One job at a time on a thread beside the caller's: ``then`` waits for the job
    before, so the jobs run in order, one behind the caller at most; ``wait`` waits for
    the last. A job's error is raised in the caller, at the next ``then`` or ``wait``
    or at the block's end; leaving the block waits for the job in hand, so that nothing
    writes beside a rollback."""

    def __enter__(self) -> _Pipeline:
        from concurrent.futures import ThreadPoolExecutor

        self._pool = ThreadPoolExecutor(1, thread_name_prefix="paperdesk-bib-writer")
        self._job: Future[None] | None = None
        return self

    def then(self, job: Callable[..., None], *args: Any) -> None:
        self.wait()
        self._job = self._pool.submit(job, *args)

    def wait(self) -> None:
        job, self._job = self._job, None
        if job is not None:
            job.result()

    def __exit__(self, kind: object, *rest: object) -> None:
        try:
            if kind is None:
                self.wait()
        finally:
            self._pool.shutdown(wait=True)


def _surname(name: str) -> str:
    return ascii_text(last_name(name)).lower().strip()


# BibTeX and biber read a key up to the first comma or white space; braces, quotes
# and these few would break the entry or the \cite. An apostrophe is BibTeX's
# (O'Hara_1999), not biber's: such a key is kept, and the import says biber refuses it.
_BAD_KEY = re.compile(r"[\s,{}()\"#%=\\~]")


def bib_key_ok(key: str) -> bool:
    """Any key BibTeX or biber accepts is kept as it is (``*``, ``?``, long keys, an
    apostrophe...)."""
    return bool(key) and not _BAD_KEY.search(key)


def _arxiv_key(arxiv_id: str) -> str:
    return re.sub(r"v\d+$", "", arxiv_id.strip().lower())


def _fill_existing(db: Database, pid: int, paper: BibPaper, stamp: str, file_id: int,
                   allocator: KeyAllocator) -> None:
    """Fill what an existing paper lacked; a year from the file beats an inferred one.

    A paper that came from no .bib file before takes this entry as its source (and
    this file as its ``bib_file``) and, when it is free, the entry's key.
    """
    row = db.execute("SELECT abstract, authors, organization, published, year, year_inferred, "
                     "arxiv_id, doi, url, bib_type, bib_fields, bib_source, bib_file, citekey, "
                     "title FROM papers WHERE id = ?", [pid]).fetchone()
    (abstract, authors, organization, published, year, inferred, arxiv_id, doi, url,
     bib_type, bib_fields, bib_source, bib_file, citekey, title) = row
    if bib_source and source_sha(read_stored(bib_source)) == entry_sha(
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
        if (paper.key != citekey and bib_key_ok(paper.key)
                and allocator.claim(paper.key, own=citekey) is None):
            citekey, adopted = paper.key, True
        tags = [r[0] for r in db.execute("SELECT t.name FROM paper_tags x JOIN tags t ON "
                                         "t.id = x.tag_id WHERE x.paper_id = ?", [pid])]
        tags += [t for t in paper.tags if tag_ok(t)]
        seen = {**values, "title": paper.title or title}
        bib_source = make_source(paper.raw_type, paper.key, paper.fields, paper.names, file_id,
                                 seen, tags)
        bib_file = file_id
        values["title"] = seen["title"]
    papers_table.fill_from_bib(
        db, pid,
        [values["abstract"], json.dumps(values["authors"], ensure_ascii=False),
         values["organization"], values["published"], year, inferred, values["arxiv_id"],
         values["doi"], values["url"], bib_type or paper.bib_type,
         json.dumps(extra, ensure_ascii=False) if extra else None, bib_source, bib_file,
         citekey, stamp])
    if adopted:  # the key is in the user's files already: it never changes
        papers_table.freeze_key(db, pid)


def _reindex(db: Database, ids: set[int], *, text: bool = True) -> None:
    """Rebuild the full-text rows of papers changed while the triggers were off
    (without ``text``: their annotation rows only)."""
    if not ids:
        return
    db.execute("CREATE TEMP TABLE IF NOT EXISTS bibtex_reindex (id INTEGER PRIMARY KEY)")
    db.execute("DELETE FROM temp.bibtex_reindex")
    db.conn.executemany("INSERT INTO temp.bibtex_reindex (id) VALUES (?)", [(i,) for i in ids])
    for statement in store.reindex_statements(
            "papers p WHERE p.id IN (SELECT id FROM temp.bibtex_reindex)", text=text):
        db.execute(statement)


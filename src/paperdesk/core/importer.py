"""Importing files into the library: each file in one transaction, all of it or none.

A paper seen again (same normalised title, matching abstract) is not added
twice: its new sighting joins the existing paper and fills in what that paper
lacked (author count, organisation, date). A file whose content was imported
before changes nothing. Folders import the files inside them.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperdesk.core import changes as ch
from paperdesk.core import store
from paperdesk.core.citekey import KeyAllocator
from paperdesk.core.clock import now
from paperdesk.core.digest import Digest, Entry, looks_like_digest, parse_digest
from paperdesk.core.duplicates import note_new
from paperdesk.core.errors import Cancelled, DigestError, PaperDeskError
from paperdesk.core.jobs import CancelFlag, Progress, cancellable_sql, check_cancel, no_progress
from paperdesk.core.matcher import PaperMatcher
from paperdesk.core.text import title_key
from paperdesk.core.words import plural

if TYPE_CHECKING:
    from paperdesk.core.library import Library

IMPORTED = "imported"
ALREADY = "already imported"
ERROR = "error"
SKIPPED = "skipped"
CANCELLED = "cancelled"

BULK_THRESHOLD = 200  # from this many new papers, index in bulk (per-row triggers cost 2x)
MAX_FILE_BYTES = 256 * 2**20  # a digest of 100,000 entries is about 135 MiB
READ_CHUNK = 4 * 2**20


@dataclass
class FileReport:
    path: str
    name: str
    status: str
    kind: str = "digest"
    entries: int = 0
    new_papers: int = 0
    merged: int = 0
    warnings: list[str] = field(default_factory=list)
    error: str | None = None
    digest_id: int | None = None
    paper_ids: list[int] = field(default_factory=list)
    likely_duplicates: int = 0  # new papers that may repeat one already in the library

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("paper_ids")
        return data

    @property
    def failed(self) -> bool:
        return self.status == ERROR


@dataclass(frozen=True)
class ImportResult(Sequence[FileReport]):
    """What an import did: a report per file (the result reads as their list) and
    the ``changes`` of every file that was written."""

    reports: list[FileReport]
    changes: ch.Changes = ch.NOTHING

    def __getitem__(self, index):  # type: ignore[override]
        return self.reports[index]

    def __len__(self) -> int:
        return len(self.reports)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, list):
            return self.reports == other
        return super().__eq__(other)


def file_changes(report: FileReport, kinds: Iterable[str] = ()) -> ch.Changes:
    """The changes of one file's import (papers added and filled, its digest row)."""
    kinds = {ch.PAPER_SET, ch.PAPERS, ch.DIGESTS, *kinds}
    if report.likely_duplicates:
        kinds.add(ch.CANDIDATES)
    return ch.Changes(f"Import {report.name}", frozenset(kinds), frozenset(report.paper_ids))


def expand(paths: Iterable[str | os.PathLike[str]]) -> Iterator[tuple[Path, bool]]:
    """Files to import, with whether each came from inside a folder."""
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for child in sorted(path.rglob("*")):
                hidden = any(part.startswith(".") for part in child.relative_to(path).parts)
                if child.is_file() and not hidden:
                    yield child, True
        else:
            yield path, False


# Importers by kind: (sniff(bytes) -> bool, import function). The BibTeX
# importer registers itself here when it lands.
Importer = Callable[["Library", Path, bytes, Progress, CancelFlag | None], FileReport]
IMPORTERS: list[tuple[str, Callable[[bytes], bool], Importer]] = []


def import_paths(lib: Library, paths: Iterable[str | os.PathLike[str]],
                 progress: Progress = no_progress,
                 cancel: CancelFlag | None = None) -> ImportResult:
    files = list(expand(paths))
    reports: list[FileReport] = []
    written: list[ch.Changes] = []
    lib.add_listener(written.append)  # each file's write, as it commits
    try:
        for index, (path, in_folder) in enumerate(files):
            def step(fraction: float, message: str, _i: int = index) -> None:
                progress((_i + fraction) / len(files), message)

            step(0.0, f"Reading {path.name}")
            report = import_file(lib, path, step, cancel, in_folder=in_folder)
            reports.append(report)
            if report.status == CANCELLED:
                reports.extend(FileReport(str(p), p.name, CANCELLED) for p, _ in files[index + 1:])
                break
    finally:
        lib.remove_listener(written.append)
    progress(1.0, "Done")
    label = f"Import {plural(len(reports), 'file')}"
    return ImportResult(reports, ch.combine(label, written))


def _kind(mode: int) -> str | None:
    """What a file that is not a regular file is, in words."""
    for test, words in ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a device"),
                        (stat.S_ISBLK, "a device"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
                        (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return words
    return None if stat.S_ISREG(mode) else "not a regular file"


def _check_kind(path: Path, mode: int) -> None:
    if (kind := _kind(mode)) is not None:
        raise DigestError(f"{path}: is {kind}, not a file; nothing was read")


def _read(path: Path, cancel: CancelFlag | None = None) -> bytes:
    """The file's bytes: refused before reading when it is not a regular file (a device
    or a pipe would never end, or never start) or larger than MAX_FILE_BYTES."""
    try:
        _check_kind(path, os.stat(path).st_mode)
        # O_NONBLOCK: should the path become a named pipe meanwhile, opening it does not
        # wait for a writer; fstat below sees what was opened.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise DigestError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise DigestError(f"{path}: is a folder") from None
    except OSError as exc:
        raise DigestError(f"{path}: cannot be read ({exc.strerror})") from None
    with os.fdopen(fd, "rb", buffering=0) as f:
        info = os.fstat(fd)
        _check_kind(path, info.st_mode)
        limit = f"at most {MAX_FILE_BYTES // 2**20} MiB"
        if info.st_size > MAX_FILE_BYTES:
            raise DigestError(f"{path.name}: too large to import ({info.st_size / 2**20:,.0f} "
                              f"MiB; {limit})")
        chunks, size = [], 0
        try:
            while chunk := f.read(READ_CHUNK):
                size += len(chunk)
                if size > MAX_FILE_BYTES:  # it grew, or its size was not told
                    raise DigestError(f"{path.name}: too large to import (more than "
                                      f"{limit.removeprefix('at most ')})")
                chunks.append(chunk)
                check_cancel(cancel)
        except OSError as exc:
            raise DigestError(f"{path}: cannot be read ({exc.strerror})") from None
    return b"".join(chunks)


def import_file(lib: Library, path: Path, progress: Progress = no_progress,
                cancel: CancelFlag | None = None, *, in_folder: bool = False) -> FileReport:
    """Import one file, whatever its kind; never raises for bad input."""
    report = FileReport(str(path), path.name, ERROR)
    try:
        data = _read(path, cancel)
        for kind, sniff, importer in IMPORTERS:
            if sniff(data):
                report = importer(lib, path, data, progress, cancel)
                report.kind = kind
                return report
        if in_folder:
            report.status, report.error = SKIPPED, f"{path.name}: not a digest; skipped"
            return report
        return import_digest(lib, path, data, progress, cancel)
    except Cancelled:
        report.status, report.error = CANCELLED, "cancelled; nothing from this file was kept"
    except PaperDeskError as exc:
        report.error = str(exc)
    return report


def content_hash(data: bytes, cancel: CancelFlag | None = None) -> str:
    digest = hashlib.sha256()
    view = memoryview(data)
    for start in range(0, len(data), READ_CHUNK):
        digest.update(view[start:start + READ_CHUNK])
        check_cancel(cancel)
    return digest.hexdigest()


def _mtime_year(path: Path) -> int:
    try:
        return datetime.fromtimestamp(path.stat().st_mtime).year
    except OSError:
        return datetime.now().year


def import_digest(lib: Library, path: Path, data: bytes, progress: Progress = no_progress,
                  cancel: CancelFlag | None = None) -> FileReport:
    db = lib.db
    sha = content_hash(data, cancel)
    report = FileReport(str(path), path.name, ALREADY)
    if db.execute("SELECT 1 FROM digests WHERE sha256 = ?", [sha]).fetchone():
        report.warnings = [f"{path.name}: already imported; nothing changed"]
        return report
    digest = parse_digest(data, path.name, _mtime_year(path), cancel)
    report.entries, report.warnings = len(digest.entries), list(digest.warnings)
    progress(0.2, f"Parsed {len(digest.entries)} entries from {path.name}")
    check_cancel(cancel)
    with lib.write(f"Import {path.name}") as w:
        if db.execute("SELECT 1 FROM digests WHERE sha256 = ?", [sha]).fetchone():
            report.warnings = [f"{path.name}: already imported; nothing changed"]
            w.changes = ch.NOTHING
            return report
        top = db.execute("SELECT coalesce(max(id), 0) FROM papers").fetchone()[0]
        with cancellable_sql(db.conn, cancel):
            _write_digest(lib, path, sha, digest, report, progress, cancel)
            report.likely_duplicates = note_new(lib, [p for p in report.paper_ids if p > top],
                                                cancel)
        w.changes = file_changes(report)
    report.status = IMPORTED
    return report


IMPORTERS.append(("digest", looks_like_digest, import_digest))


def _entry_fields(entry: Entry) -> dict[str, Any]:
    published = entry.published.isoformat() if entry.published else None
    return {
        "author_count": entry.author_count,
        "organization": entry.organization,
        "organization_handle": entry.organization_handle,
        "published": published,
        "year": entry.published.year if entry.published else None,
        "year_inferred": int(entry.year_inferred),
    }


def _write_digest(lib: Library, path: Path, sha: str, digest: Digest, report: FileReport,
                  progress: Progress, cancel: CancelFlag | None) -> None:
    db = lib.db
    stamp = now()
    digest_id = db.execute(
        "INSERT INTO digests (name, path, sha256, digest_date, year, year_source, daily_papers,"
        " encoding, entries, warnings, imported_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
        [path.name, str(path.absolute()), sha, digest.date.isoformat() if digest.date else None,
         digest.year, digest.year_source, int(digest.daily_papers), digest.encoding,
         len(digest.entries), json.dumps(digest.warnings), stamp]).lastrowid
    report.digest_id = digest_id
    keys = []
    for n, e in enumerate(digest.entries):
        if n % 1000 == 0:
            check_cancel(cancel)
        keys.append(title_key(e.title))
    matcher = PaperMatcher(db, keys)
    next_id = db.execute("SELECT coalesce(max(id), 0) + 1 FROM papers").fetchone()[0]
    first_new = next_id
    allocator = KeyAllocator(db, expected=len(digest.entries))
    new_papers: list[tuple[Any, ...]] = []
    sightings: list[tuple[Any, ...]] = []
    fills: dict[int, Entry] = {}
    touched: list[int] = []
    for n, (entry, key) in enumerate(zip(digest.entries, keys, strict=True)):
        check_cancel(cancel)  # each entry costs at most MAX_SIMILAR comparisons
        if n % 500 == 0:
            progress(0.2 + 0.5 * n / max(1, len(keys)), f"Matching {path.name}")
        fields = _entry_fields(entry)
        pid = matcher.find(key, entry.abstract)
        if pid is None:
            pid, next_id = next_id, next_id + 1
            matcher.add(key, pid, entry.abstract)
            citekey = allocator.take({"title": entry.title, **fields})
            new_papers.append((pid, entry.title, entry.abstract, key, fields["author_count"],
                               fields["organization"], fields["organization_handle"],
                               fields["published"], fields["year"], fields["year_inferred"],
                               citekey, stamp, stamp))
        else:
            if pid < first_new:
                fills.setdefault(pid, entry)
                report.merged += 1
            else:
                _fill_new(new_papers, pid - first_new, entry)
                report.merged += 1
        touched.append(pid)
        sightings.append((digest_id, pid, entry.position, entry.line, entry.title, entry.meta_raw,
                          entry.author_count, entry.organization, entry.organization_handle,
                          fields["published"], entry.published_raw, fields["year_inferred"],
                          entry.upvotes))
    check_cancel(cancel)
    progress(0.75, f"Writing {len(new_papers)} new papers")
    bulk = len(new_papers) >= BULK_THRESHOLD
    insert_papers = (
        "INSERT INTO papers (id, title, abstract, title_key, author_count, organization,"
        " organization_handle, published, year, year_inferred, citekey, added, modified)"
        " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)")
    insert_sightings = (
        "INSERT INTO sightings (digest_id, paper_id, position, line, raw_title, meta_raw,"
        " author_count, organization, organization_handle, published, published_raw,"
        " year_inferred, upvotes) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)")
    if bulk:
        with store.bulk_index(db):
            db.conn.executemany(insert_papers, new_papers)
            db.conn.executemany(insert_sightings, sightings)
    else:
        db.conn.executemany(insert_papers, new_papers)
        db.conn.executemany(insert_sightings, sightings)
    for pid, entry in fills.items():
        _fill_existing(db, pid, entry, stamp)
    check_cancel(cancel)
    report.new_papers = len(new_papers)
    report.paper_ids = list(dict.fromkeys(touched))
    db.execute("UPDATE digests SET new_papers = ?, merged = ? WHERE id = ?",
               [report.new_papers, report.merged, digest_id])


def _fill_new(rows: list[tuple[Any, ...]], index: int, entry: Entry) -> None:
    """A paper repeated inside one file: fill the pending row's empty fields."""
    fields = _entry_fields(entry)
    values = list(rows[index])
    for pos, name in ((4, "author_count"), (5, "organization"), (6, "organization_handle")):
        if values[pos] is None:
            values[pos] = fields[name]
    if fields["published"] and (values[7] is None or (values[9] and not fields["year_inferred"])):
        values[7:10] = fields["published"], fields["year"], fields["year_inferred"]
    rows[index] = tuple(values)


def _fill_existing(db: Any, pid: int, entry: Entry, stamp: str) -> None:
    """Fill what an existing paper lacked; a printed year beats an inferred one."""
    f = _entry_fields(entry)
    db.execute(
        """UPDATE papers SET
             author_count = coalesce(author_count, ?),
             organization = coalesce(organization, ?),
             organization_handle = coalesce(organization_handle, ?),
             published = CASE WHEN ? IS NOT NULL AND (published IS NULL OR
                           (year_inferred = 1 AND ? = 0)) THEN ? ELSE published END,
             year = CASE WHEN ? IS NOT NULL AND (published IS NULL OR
                           (year_inferred = 1 AND ? = 0)) THEN ? ELSE year END,
             year_inferred = CASE WHEN ? IS NOT NULL AND (published IS NULL OR
                           (year_inferred = 1 AND ? = 0)) THEN ? ELSE year_inferred END,
             modified = ?
           WHERE id = ?""",
        [f["author_count"], f["organization"], f["organization_handle"],
         f["published"], f["year_inferred"], f["published"],
         f["published"], f["year_inferred"], f["year"],
         f["published"], f["year_inferred"], f["year_inferred"],
         stamp, pid])


# The .bib importer registers itself in IMPORTERS when its module loads.
from paperdesk.core import bibtex_import  # noqa: E402, F401

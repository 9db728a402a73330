"""Importing a digest file, in one transaction.

A paper seen again (same normalised title, matching abstract) is not added
twice: its new sighting joins the existing paper and fills in what that paper
lacked (author count, organisation, date). A file whose content was imported
before changes nothing.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperdesk.core.bibtex.citekey import KeyAllocator, refresh
from paperdesk.core.db import changes as ch
from paperdesk.core.db import digests_table, ids, papers_table, store
from paperdesk.core.db.database import Database
from paperdesk.core.duplicates.duplicates import note_new
from paperdesk.core.duplicates.matcher import PaperMatcher
from paperdesk.core.importing import file_report
from paperdesk.core.importing.file_report import ALREADY, IMPORTED, FileReport, file_changes
from paperdesk.core.model.clock import now
from paperdesk.core.model.digest import Digest, Entry, parse_digest
from paperdesk.core.model.jobs import (
    CancelFlag,
    Progress,
    cancellable_sql,
    check_cancel,
    gc_paused,
    no_progress,
)
from paperdesk.core.model.text import title_key

if TYPE_CHECKING:
    from paperdesk.core.library import Library


def content_hash(data: bytes, cancel: CancelFlag | None = None) -> str:
    digest = hashlib.sha256()
    view = memoryview(data)
    for start in range(0, len(data), file_report.READ_CHUNK):
        digest.update(view[start:start + file_report.READ_CHUNK])
        check_cancel(cancel)
    return digest.hexdigest()


def _mtime_year(path: Path) -> int:
    try:
        return datetime.fromtimestamp(path.stat().st_mtime).year
    except OSError:
        return datetime.now().year


def import_digest(lib: Library, path: Path, data: bytes, progress: Progress = no_progress,
                  cancel: CancelFlag | None = None) -> FileReport:
    with gc_paused():  # its objects are freed by the time it returns
        return _import_digest(lib, path, data, progress, cancel)


def _import_digest(lib: Library, path: Path, data: bytes, progress: Progress,
                   cancel: CancelFlag | None) -> FileReport:
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
    with store.large_write(db), lib.write(f"Import {path.name}") as w:
        with cancellable_sql(db.conn, cancel):
            if not _write_digest(lib, path, sha, digest, report, progress, cancel):
                # Imported by another program since the look above: the digests'
                # unique sha256 says so under the write lock, with no second look.
                report.warnings = [f"{path.name}: already imported; nothing changed"]
                w.changes = ch.NOTHING
                return report
            report.likely_duplicates = note_new(lib, report.created_ids, cancel)
        w.changes = file_changes(report)
    report.status = IMPORTED
    return report


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
                  progress: Progress, cancel: CancelFlag | None) -> bool:
    """The digest's rows; False, with nothing written, when its file is in already."""
    db = lib.db
    stamp = now()
    digest_id = digests_table.insert_digest(
        db, [path.name, str(path.absolute()), sha, digest.date.isoformat() if digest.date else None,
             digest.year, digest.year_source, int(digest.daily_papers), digest.encoding,
             len(digest.entries), json.dumps(digest.warnings), stamp])
    if digest_id is None:
        return False
    report.digest_id = digest_id
    rows = _match_entries(db, path.name, digest, digest_id, stamp, progress, cancel)
    report.merged += rows.merged
    check_cancel(cancel)
    progress(0.75, f"Writing {len(rows.new_papers)} new papers")
    _insert_rows(db, rows)
    _fill_existing_papers(db, rows.fills, stamp)
    check_cancel(cancel)
    report.new_papers = len(rows.new_papers)
    report.paper_ids = list(dict.fromkeys(rows.touched))
    report.created_ids = [row[0] for row in rows.new_papers]
    digests_table.set_counts(db, digest_id, report.new_papers, report.merged)
    return True


@dataclass
class _Rows:
    """What a digest's entries come to: rows of new papers and of sightings, the
    existing papers they fill in, every paper seen (in order), and how many
    entries joined a paper already there or earlier in the file."""

    new_papers: list[tuple[Any, ...]] = field(default_factory=list)
    sightings: list[tuple[Any, ...]] = field(default_factory=list)
    fills: dict[int, Entry] = field(default_factory=dict)
    touched: list[int] = field(default_factory=list)
    merged: int = 0
    top: int = 0  # the highest paper id before the digest's papers


def _match_entries(db: Database, name: str, digest: Digest, digest_id: int, stamp: str,
                   progress: Progress, cancel: CancelFlag | None) -> _Rows:
    keys = []
    for n, e in enumerate(digest.entries):
        if n % 1000 == 0:
            check_cancel(cancel)
        keys.append(title_key(e.title))
    matcher = PaperMatcher(db, keys)
    next_id = ids.first_free(db, "papers")  # never an id a deleted paper had
    first_new = next_id
    rows = _Rows(top=papers_table.top_id(db))  # read once: the keys' and the index's
    allocator = KeyAllocator(db, expected=len(digest.entries), top=rows.top)
    for n, (entry, key) in enumerate(zip(digest.entries, keys, strict=True)):
        check_cancel(cancel)  # each entry costs at most MAX_SIMILAR comparisons
        if n % 500 == 0:
            progress(0.2 + 0.5 * n / max(1, len(keys)), f"Matching {name}")
        fields = _entry_fields(entry)
        pid = matcher.find(key, entry.abstract)
        if pid is None:
            pid, next_id = next_id, next_id + 1
            matcher.add(key, pid, entry.abstract)
            citekey = allocator.take({"title": entry.title, **fields})
            rows.new_papers.append((
                pid, entry.title, entry.abstract, key, fields["author_count"],
                fields["organization"], fields["organization_handle"], fields["published"],
                fields["year"], fields["year_inferred"], citekey, stamp, stamp,
                entry.upvotes, 1))  # what the triggers would make of its sightings
        else:
            if pid < first_new:
                rows.fills.setdefault(pid, entry)
            else:
                _fill_new(rows.new_papers, pid - first_new, entry)
            rows.merged += 1
        rows.touched.append(pid)
        rows.sightings.append((
            digest_id, pid, entry.position, entry.line, entry.title, entry.meta_raw,
            entry.author_count, entry.organization, entry.organization_handle,
            fields["published"], entry.published_raw, fields["year_inferred"], entry.upvotes))
    return rows


def _insert_rows(db: Database, rows: _Rows) -> None:
    """The new papers and the sightings; many at once with the triggers set aside."""
    bulk = len(rows.new_papers) >= file_report.BULK_THRESHOLD
    with (store.bulk_index(db, incoming=len(rows.new_papers), top=rows.top) if bulk
          else contextlib.nullcontext()):
        papers_table.insert_from_digest(db, rows.new_papers)
        digests_table.insert_sightings(db, rows.sightings)


def _fill_existing_papers(db: Database, fills: dict[int, Entry], stamp: str) -> None:
    moved = []
    for pid, entry in fills.items():
        was = db.execute("SELECT organization, year FROM papers WHERE id = ?", [pid]).fetchone()
        # what it lacked; a printed year beats an inferred one (the writer says what
        # they are now: read once, before)
        now = papers_table.fill_from_digest(db, pid, _entry_fields(entry), stamp)
        if now is not None and tuple(now) != tuple(was):
            moved.append(pid)
    refresh(db, moved)  # a provisional key follows a printed year or a new organisation


def _fill_new(rows: list[tuple[Any, ...]], index: int, entry: Entry) -> None:
    """A paper repeated inside one file: fill the pending row's empty fields."""
    fields = _entry_fields(entry)
    values = list(rows[index])
    for pos, name in ((4, "author_count"), (5, "organization"), (6, "organization_handle")):
        if values[pos] is None:
            values[pos] = fields[name]
    if fields["published"] and (values[7] is None or (values[9] and not fields["year_inferred"])):
        values[7:10] = fields["published"], fields["year"], fields["year_inferred"]
    if entry.upvotes is not None and (values[13] is None or entry.upvotes > values[13]):
        values[13] = entry.upvotes  # the most upvotes printed, as for its sightings
    rows[index] = tuple(values)

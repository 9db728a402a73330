"""The indexer: each attachment's pages into the full-text file, resumably.

A job like the others (``progress(fraction, message)``, a cancel flag), driven by
``paperdesk pdf index``, the window's background indexer and the tests alike. It
works from the attachments the library holds (read by the caller, so the job needs
no connection to the library) and the states the full-text file keeps:

- an attachment no longer in the library is forgotten;
- one already read from a file with the same SHA-256 by the same extractor
  (``normalise.extractor()``) is left as it is;
- any other is read whole in the PDF sandbox (a child process with a deadline and a
  memory cap), its pages normalised (``normalise.normalise``: here or there) and
  written with its state in one transaction (``fulltext_db.Fulltext.put``): a run
  killed at any moment leaves each attachment whole or absent, and the next run goes
  on from there.

A file that cannot be read (encrypted, damaged, hostile) is kept with its one-line
reason and no pages, so it is not read again until it or the extractor changes; a
file that is missing is only reported (a linked file may come back). A cancelled run
keeps what it wrote: that is indexing done. Attachments are read in the order of
their ids, and nothing written depends on the order or on the clock: deleting the
file and indexing again makes the same rows.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paperdesk.core.db.fulltext_db import Fulltext
from paperdesk.core.model.errors import PdfError
from paperdesk.core.model.jobs import CancelFlag, Progress, no_progress
from paperdesk.core.pdf.normalise import extractor, normalise
from paperdesk.core.pdf.sandbox import PdfSandbox, shown_name

_HASH_CHUNK = 1 << 20


@dataclass
class IndexReport:
    """What a run did: attachments in the library, read now (and their pages),
    already current, forgotten; one line per file unreadable or missing."""

    attachments: int = 0
    indexed: int = 0
    pages: int = 0
    current: int = 0
    removed: int = 0
    failed: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    cancelled: bool = False


def files_folder(library: Path) -> Path:
    """``NAME.files/`` beside the library ``NAME.sqlite``: where stored copies live."""
    return library.with_name(library.stem + ".files")


def attachment_file(library: Path, row: Mapping[str, Any]) -> Path:
    """The file of an attachment row: a stored copy's path is relative to the files
    folder, a linked file's absolute."""
    if row["kind"] == "stored":
        return files_folder(library) / row["path"]
    return Path(row["path"])


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:  # a PDF, never a database file
        while chunk := f.read(_HASH_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def pending(attachments: Iterable[Mapping[str, Any]], states: Mapping[int, tuple[str, str]],
            ) -> list[Mapping[str, Any]]:
    """The attachments whose text is not in the file as this extractor reads it."""
    version = extractor()
    return [row for row in sorted(attachments, key=lambda r: r["id"])
            if states.get(row["id"]) != (row["sha256"], version)]


def index(library: Path, attachments: Sequence[Mapping[str, Any]], *, rebuild: bool = False,
          progress: Progress = no_progress, cancel: CancelFlag | None = None,
          sandbox: PdfSandbox | None = None, normalise_here: bool = True,
          background: bool = False) -> IndexReport:
    """Bring the full-text file of the library at ``library`` up to ``attachments``
    (the rows of its ``attachments`` table); ``rebuild``: empty it first.

    ``normalise_here``: the pages are normalised in this process, while the sandbox
    reads the next file (the quickest on two cores); else in the sandbox, which keeps
    this process's interpreter free for a window's UI thread. ``background``: the
    sandbox runs below normal priority (a window's indexer: its UI comes first); a
    command someone waits for runs at theirs (on a busy machine, nice 10 gave it a
    third of its speed)."""
    report = IndexReport(attachments=len(attachments))
    own = sandbox is None
    pdf = PdfSandbox(name="paperdesk-pdf-index", background=background) \
        if sandbox is None else sandbox
    try:
        with Fulltext.open(library) as ft:
            if rebuild:
                ft.clear()
            states = ft.states()
            alive = {row["id"] for row in attachments}
            report.removed = ft.drop(sorted(set(states) - alive))
            todo = pending(attachments, states)
            report.current = len(attachments) - len(todo)
            _work(ft, pdf, library, todo, report, progress, cancel, normalise_here)
    finally:
        if own:
            pdf.close()
    return report


def _work(ft: Fulltext, pdf: PdfSandbox, library: Path, todo: list[Mapping[str, Any]],
          report: IndexReport, progress: Progress, cancel: CancelFlag | None,
          here: bool) -> None:
    """Read the files of ``todo`` in the sandbox, the next one while this one is
    normalised (``here``; else in the sandbox) and written (``PdfSandbox.texts``)."""
    version = extractor()
    files = []
    for row in todo:
        path = attachment_file(library, row)
        if path.is_file():
            files.append((row, path))
        else:
            report.missing.append(f"{shown_name(path)} is missing")
    progress(0.0, f"Indexing the text of PDFs: 0 of {len(files):,}")
    with contextlib.closing(pdf.texts([path for _, path in files],
                                      normalised=not here)) as texts:
        for done, ((row, path), (_, text)) in enumerate(zip(files, texts, strict=True), 1):
            try:
                digest = sha256_of(path)
            except OSError as exc:
                report.missing.append(f"{shown_name(path)} is missing ({exc.strerror})")
                continue
            if isinstance(text, PdfError):
                pages, error = [], str(text)
                report.failed.append(error)
            else:
                pages, error = (text if not here else [normalise(t) for t in text]), None
            ft.put(row["id"], digest, version, pages, error)
            report.indexed += 1
            report.pages += len(pages)
            progress(done / len(files), f"Indexing the text of PDFs: {done:,} of {len(files):,}")
            if cancel is not None and cancel.is_set() and done < len(files):
                report.cancelled = True
                return

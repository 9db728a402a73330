"""Importing files and folders: each file, picked by content from the explicit
list of importers (``importers``), in one write of its own, all of it or none.

Folders import the files inside them (a file in a folder that no importer
recognises is skipped); a single file nothing recognises gets the digest
importer's one-line error, and so does a folder with no files at all
(hidden ones aside): "no digest or .bib files in FOLDER".
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from paperdesk.core.db import changes as ch
from paperdesk.core.db import files
from paperdesk.core.importing import import_undo
from paperdesk.core.importing.file_report import (
    ALREADY,
    BULK_THRESHOLD,
    CANCELLED,
    ERROR,
    IMPORTED,
    READ_CHUNK,
    SKIPPED,
    FileBytes,
    FileReport,
    ImportResult,
    file_changes,
)
from paperdesk.core.model.errors import Cancelled, DigestError, PaperDeskError
from paperdesk.core.model.jobs import CancelFlag, Progress, check_cancel, no_progress
from paperdesk.core.model.text import plural

# Kept importable from here, where they were before each importer had a module.
__all__ = ["ALREADY", "BULK_THRESHOLD", "CANCELLED", "ERROR", "IMPORTED", "SKIPPED",
           "FileReport", "ImportResult", "expand", "file_changes", "import_file",
           "import_paths"]

if TYPE_CHECKING:
    from paperdesk.core.library import Library

MAX_FILE_BYTES = 256 * 2**20  # a digest of 100,000 entries is about 135 MiB


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


def import_paths(lib: Library, paths: Iterable[str | os.PathLike[str]],
                 progress: Progress = no_progress,
                 cancel: CancelFlag | None = None) -> ImportResult:
    files: list[tuple[Path, bool]] = []
    reports: list[FileReport] = []
    for raw in paths:
        found = list(expand([raw]))
        if not found and Path(raw).is_dir():  # said, not passed over in silence
            reports.append(FileReport(str(raw), Path(raw).name, ERROR,
                                      error=f"no digest or .bib files in {raw}"))
        files += found
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
    return ImportResult(reports, ch.combine(label, written), import_undo.record(lib, reports))


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
    if files.in_use(path):  # reading it here would drop this process's locks on it
        raise DigestError(f"{path.name}: is a library file PaperDesk has open; not imported")
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
    from paperdesk.core.importing.importers import IMPORTERS  # the formats load when a file comes

    report = FileReport(str(path), path.name, ERROR)
    try:
        data = _read(path, cancel)
        kind, importer = None, IMPORTERS[0][2]  # none recognises it: a digest, or its error
        for name, sniff, candidate in IMPORTERS:
            if sniff(data):
                kind, importer = name, candidate
                break
        if kind is None and in_folder:
            report.status, report.error = SKIPPED, f"{path.name}: not a digest; skipped"
            return report
        held = FileBytes(data)
        del data  # the importer holds the bytes, and lets them go when it is done with them
        report = importer(lib, path, held, progress, cancel)
        if kind is not None:
            report.kind = kind
        return report
    except Cancelled:
        report.status, report.error = CANCELLED, "cancelled; nothing from this file was kept"
    except PaperDeskError as exc:
        report.error = str(exc)
    return report

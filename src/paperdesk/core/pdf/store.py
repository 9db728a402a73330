"""The files folder beside the library: ``NAME.files/<paper uid>/<readable name>.pdf``.

A stored PDF is a copy PaperDesk keeps; its folder is named by the paper's stable id
(``papers.uid``), so neither a new title nor a new citation key ever renames it, and
its name is readable (the paper's title, else the file's own name). A copy is written
whole or not at all (``files.atomic_write``: a temporary file beside it, fsync,
rename), never more readable than the library itself, and hashed while it is copied:
the SHA-256 recorded is that of the bytes written, and a source that changed while it
was read is refused. A linked PDF stays where the user keeps it (its absolute path).

Removing an attachment leaves its copy in the folder (an undo brings the row back, and
the file is still there); ``sweep`` removes the copies no attachment names any more,
which the trash's emptying does.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path
from typing import Any, BinaryIO

from paperdesk.core.db import files

# Where the files are (the attachments' reads), lent on to the store's callers.
from paperdesk.core.db.attachments_table import file_path as file_path
from paperdesk.core.db.attachments_table import files_folder as files_folder
from paperdesk.core.db.backup import folder_mode as folder_mode
from paperdesk.core.db.backup import library_mode
from paperdesk.core.model.errors import PdfError
from paperdesk.core.pdf import pdf_worker

CHUNK = 1 << 20
NAME_LENGTH = 80  # characters of a readable name, before ".pdf"
MAX_BYTES = pdf_worker.MAX_BYTES  # a PDF larger than 1 GiB is refused before it is read
STORED, LINKED = "stored", "linked"


def is_missing(library: Path, row: dict[str, Any]) -> bool:
    return not file_path(library, row).is_file()


def readable_name(title: str | None, fallback: str) -> str:
    """A file name people read: the title's words (letters, digits, a few marks),
    at most ``NAME_LENGTH`` characters, ending in ``.pdf``; ``fallback`` (the file's
    own name) when the title gives none."""
    for text in (title or "", Path(fallback).stem, "paper"):
        plain = unicodedata.normalize("NFKC", text)
        plain = re.sub(r"[^\w\-,.()' ]+", " ", plain).strip(" .")
        plain = " ".join(plain.split())[:NAME_LENGTH].rstrip(" .")
        if plain:
            return plain + ".pdf"
    return "paper.pdf"  # not reached: "paper" is a name


def _read_chunks(source: BinaryIO) -> Iterable[bytes]:
    while chunk := source.read(CHUNK):
        yield chunk


def digest(path: Path) -> tuple[str, int]:
    """The SHA-256 (hex) and size of the file at ``path``."""
    sha, size = hashlib.sha256(), 0
    with open(path, "rb") as source:
        for chunk in _read_chunks(source):
            sha.update(chunk)
            size += len(chunk)
    return sha.hexdigest(), size


def check_source(path: Path) -> int:
    """The size of the regular file at ``path``; a PdfError (one line) for anything
    else: missing, a folder, empty, larger than ``MAX_BYTES``."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise PdfError(f"{path}: no such file; nothing was attached") from None
    except OSError as exc:
        raise PdfError(f"{path}: cannot be read ({exc.strerror}); nothing was attached") \
            from None
    if not os.path.isfile(path):
        raise PdfError(f"{path}: is not a file ({files.file_kind(info.st_mode)}); "
                       "nothing was attached")
    if info.st_size == 0:
        raise PdfError(f"{shown(path)}: is empty, not a PDF; nothing was attached")
    if info.st_size > MAX_BYTES:
        raise PdfError(f"{shown(path)}: {info.st_size / 2**20:,.0f} MB is larger than the "
                       f"{MAX_BYTES >> 20:,} MB PaperDesk stores; nothing was attached")
    return info.st_size


def _free_name(folder: Path, name: str, sha256: str) -> tuple[str, bool]:
    """A name in ``folder`` for a file of ``sha256``: ``name``, else "name (2).pdf"...;
    True when a file of that name there holds these very bytes already."""
    stem = name[:-4]
    for n in range(1, 1000):
        candidate = name if n == 1 else f"{stem} ({n}).pdf"
        path = folder / candidate
        if not path.exists():
            return candidate, False
        with contextlib.suppress(OSError):
            if path.is_file() and digest(path)[0] == sha256:
                return candidate, True
    raise PdfError(f"{folder}: holds too many files named {name}; nothing was attached")


def shown(path: Path) -> str:
    """A file's name as a message shows it: one line, no control characters."""
    return " ".join("".join(c if c.isprintable() else " " for c in path.name).split()) \
        or str(path)


def store_copy(library: Path, uid: str, source: Path, name: str,
               sha256: str) -> tuple[str, bool]:
    """Copy ``source`` (whose SHA-256 was ``sha256`` when read) into the paper's folder
    under ``name`` (made free); the path relative to the files folder, and whether a new
    file was written (a copy of the same bytes there already is used as it is)."""
    top = files_folder(library)
    folder = top / uid
    mode = folder_mode(library)
    try:
        for made in (top, folder):
            made.mkdir(mode=mode, exist_ok=True)
        free, there = _free_name(folder, name, sha256)
        if not there:
            _copy(source, folder / free, sha256, library_mode(library) & 0o666)
    except OSError as exc:
        raise PdfError(f"cannot store {shown(source)} in {folder} "
                       f"({exc.strerror or exc}); nothing was attached") from None
    return f"{uid}/{free}", not there


def discard(library: Path, relative: str) -> None:
    """Remove a copy just written that no row names (its attach failed)."""
    with contextlib.suppress(OSError):
        (files_folder(library) / relative).unlink()


def _copy(source: Path, dest: Path, sha256: str, mode: int) -> None:
    with files.atomic_write(dest, kind="partial", max_mode=mode) as temp, \
            open(source, "rb") as src, open(temp, "wb") as out:
        sha = hashlib.sha256()
        for chunk in _read_chunks(src):
            sha.update(chunk)
            out.write(chunk)
        out.flush()
        if sha.hexdigest() != sha256:
            raise PdfError(f"{shown(source)}: changed while it was being copied; "
                           "nothing was attached")


def sweep(library: Path, kept: Iterable[str]) -> list[Path]:
    """Remove the stored copies no attachment names (``kept``: the paths, relative to
    the files folder, that rows name), and the paper folders left empty; what went."""
    top = files_folder(library)
    wanted = set(kept)
    removed: list[Path] = []
    try:
        folders = [p for p in top.iterdir() if p.is_dir() and not p.is_symlink()]
    except OSError:
        return removed
    for folder in folders:
        with contextlib.suppress(OSError):
            for path in folder.iterdir():
                if path.is_file() and f"{folder.name}/{path.name}" not in wanted:
                    path.unlink()
                    removed.append(path)
            if not any(folder.iterdir()):
                folder.rmdir()
    return removed

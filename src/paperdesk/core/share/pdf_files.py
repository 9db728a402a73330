"""The PDF files themselves, with ``share --with-files``: every stored copy of this
library, and every linked file found where it was linked, is written once into the
share's folder under its SHA-256 (``files/SHA256.pdf``); every stored copy an
attachment names that this library lacks is fetched from there into its files folder
(``NAME.files/``), and so is a linked file that arrived from another computer: a
linked file's path is each computer's own, so here it is the copy's
(``NAME.files/<the paper's stable id>/<name>``, kept there like a stored copy). A
linked file this computer had and lost stays missing, for the user to locate.

Each file is written whole (a temporary file, fsync, rename), and its bytes are
checked against the SHA-256 they are named by on the way: a file still arriving or
damaged is left alone, said in one line and fetched again at a later exchange.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paperdesk.core.db.attachments_table import files_folder
from paperdesk.core.db.backup import folder_mode, library_mode
from paperdesk.core.db.files import atomic_write

FOLDER = "files"
_CHUNK = 1 << 20


@dataclass
class Moved:
    sent: int = 0
    fetched: int = 0
    lines: list[str] = field(default_factory=list)  # files left for a later exchange
    # linked files fetched: attachment id -> the copy's path, for the library to hold
    located: dict[int, str] = field(default_factory=dict)


def in_folder(place: Path, sha256: str) -> Path:
    return place / FOLDER / f"{sha256}.pdf"


def exchange(library: Path, place: Path, rows: Iterable[Mapping[str, Any]],
             uids: Mapping[int, str]) -> Moved:
    """Send this library's files the folder lacks and fetch those it lacks (``rows``:
    the attachments; ``uids``: their papers' stable ids)."""
    out = Moved()
    store = files_folder(library)
    for row in rows:
        there = in_folder(place, row["sha256"])
        if row["kind"] != "stored":
            _linked(library, row, there, uids, out)
            continue
        here = store / row["path"]
        if here.is_file() and not there.is_file():
            there.parent.mkdir(exist_ok=True)
            if _copy(here, there, row["sha256"]):
                out.sent += 1
        elif not here.is_file() and there.is_file():
            _folders(library, here.parent)
            if _copy(there, here, row["sha256"], library_mode(library) & 0o666):
                out.fetched += 1
            else:
                out.lines.append(f"{FOLDER}/{there.name}: not whole yet, or not the file it "
                                 "names; fetched again at a later exchange")
    return out


def _linked(library: Path, row: Mapping[str, Any], there: Path, uids: Mapping[int, str],
            out: Moved) -> None:
    """A linked file: sent when it is where it was linked, as it was; fetched when it
    arrived with no path on this computer (``kinds_pdfs``: the path stays behind)."""
    if row["path"]:
        here = Path(row["path"])
        if not there.is_file() and here.is_file():
            there.parent.mkdir(exist_ok=True)
            if _copy(here, there, row["sha256"]):  # a file changed since is not sent
                out.sent += 1
        return
    if not there.is_file() or row["paper_id"] not in uids:
        return
    folder = files_folder(library) / uids[row["paper_id"]]
    here = folder / row["name"]
    if here.exists() and not _holds(here, row["sha256"]):  # another file of that name
        here = folder / f"{here.stem}-{row['sha256'][:8]}{here.suffix}"
    if not _holds(here, row["sha256"]):
        _folders(library, folder)
        if not _copy(there, here, row["sha256"], library_mode(library) & 0o666):
            out.lines.append(f"{FOLDER}/{there.name}: not whole yet, or not the file it "
                             "names; fetched again at a later exchange")
            return
    out.located[row["id"]] = str(here)
    out.fetched += 1


class _NotIt(Exception):
    pass


def _folders(library: Path, folder: Path) -> None:
    """``folder`` (a paper's, in the files folder) and the files folder, no wider in mode
    than the library."""
    top = files_folder(library)
    for made in (top, folder):
        made.mkdir(mode=folder_mode(library), exist_ok=True)


def _holds(path: Path, sha256: str) -> bool:
    """Whether ``path`` is a file of those bytes."""
    try:
        with open(path, "rb") as f:
            sha = hashlib.sha256()
            while chunk := f.read(_CHUNK):
                sha.update(chunk)
    except OSError:
        return False
    return sha.hexdigest() == sha256


def _copy(source: Path, dest: Path, sha256: str, mode: int = 0o666) -> bool:
    """Copy ``source`` to ``dest`` whole when its bytes are those of ``sha256``; the
    copy at most ``mode``."""
    try:
        with atomic_write(dest, kind="partial", max_mode=mode) as temp, \
                open(source, "rb") as src, open(temp, "wb") as out:
            sha = hashlib.sha256()
            while chunk := src.read(_CHUNK):
                sha.update(chunk)
                out.write(chunk)
            out.flush()
            if sha.hexdigest() != sha256:
                raise _NotIt
    except (_NotIt, OSError):
        return False
    return True

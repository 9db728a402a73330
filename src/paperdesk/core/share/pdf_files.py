"""The PDF files themselves, with ``share --with-files``: every stored copy of this
library is written once into the share's folder under its SHA-256
(``files/SHA256.pdf``), and every stored copy an attachment names that this library
lacks is fetched from there into its files folder (``NAME.files/``).

Each file is written whole (a temporary file, fsync, rename), and its bytes are
checked against the SHA-256 they are named by on the way: a file still arriving or
damaged is left alone, said in one line and fetched again at a later exchange. A
linked file (the user's own path) stays on its computer.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paperdesk.core.db.attachments_table import files_folder
from paperdesk.core.db.files import atomic_write

FOLDER = "files"
_CHUNK = 1 << 20


@dataclass
class Moved:
    sent: int = 0
    fetched: int = 0
    lines: list[str] = field(default_factory=list)  # files left for a later exchange


def in_folder(place: Path, sha256: str) -> Path:
    return place / FOLDER / f"{sha256}.pdf"


def exchange(library: Path, place: Path, rows: Iterable[Mapping[str, Any]]) -> Moved:
    """Send this library's stored copies the folder lacks and fetch those it lacks
    (``rows``: the attachments)."""
    out = Moved()
    store = files_folder(library)
    for row in rows:
        if row["kind"] != "stored":
            continue
        here, there = store / row["path"], in_folder(place, row["sha256"])
        if here.is_file() and not there.is_file():
            there.parent.mkdir(exist_ok=True)
            if _copy(here, there, row["sha256"]):
                out.sent += 1
        elif not here.is_file() and there.is_file():
            here.parent.mkdir(parents=True, exist_ok=True)
            if _copy(there, here, row["sha256"]):
                out.fetched += 1
            else:
                out.lines.append(f"{FOLDER}/{there.name}: not whole yet, or not the file it "
                                 "names; fetched again at a later exchange")
    return out


class _NotIt(Exception):
    pass


def _copy(source: Path, dest: Path, sha256: str) -> bool:
    """Copy ``source`` to ``dest`` whole when its bytes are those of ``sha256``."""
    try:
        with atomic_write(dest, kind="partial") as temp, open(source, "rb") as src, \
                open(temp, "wb") as out:
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

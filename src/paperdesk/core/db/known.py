"""The libraries PaperDesk has had, so that one gone missing is an error, never an
empty library silently made in its place.

One path a line in ``libraries.txt`` in the data folder, rewritten whole (under
a lock, so two programs remembering at once both count).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from paperdesk.core.db import files
from paperdesk.core.db.paths import data_dir
from paperdesk.core.model.errors import LibraryError

RECORD = "libraries.txt"


def record_path() -> Path:
    return data_dir() / RECORD


def _key(path: Path) -> str:
    return os.path.abspath(Path(path).expanduser())


def known() -> set[str]:
    try:
        text = record_path().read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return set()
    return {line for line in text.splitlines() if line}


def was_known(path: Path) -> bool:
    return _key(path) in known()


def refuse_lost(path: Path) -> None:
    """A LibraryError naming ``path`` when PaperDesk had a library there that is now
    missing (or empty), so that an empty one is not made in its place."""
    # remember runs after a library is written, so a program that creates this
    # library at the same moment is not taken for a missing one: look again.
    if _missing(path) and was_known(path) and _missing(path):
        raise LibraryError(
            f"{path}: the library is missing (PaperDesk had a library there: moved or "
            "deleted?); nothing was created. Restore a backup with `paperdesk restore "
            "FILE`, or add --create to start an empty library there")


def _missing(path: Path) -> bool:
    try:
        return path.stat().st_size == 0
    except FileNotFoundError:
        return True
    except OSError:
        return False


@contextlib.contextmanager
def _locked() -> Iterator[None]:
    from filelock import FileLock  # portable (flock here, msvcrt on Windows)

    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    with FileLock(folder / f"{RECORD}.lock", mode=0o666):
        yield


def remember(path: Path) -> None:
    """Add ``path`` to the libraries PaperDesk has had (quietly, if it cannot)."""
    key = _key(path)
    if key in known() or "\n" in key:
        return
    with contextlib.suppress(OSError), _locked():
        paths = known()
        if key in paths:
            return
        lines = sorted(paths | {key})
        with files.atomic_write(record_path()) as temp:
            temp.write_text("".join(f"{p}\n" for p in lines), encoding="utf-8")

"""A library's settings on this computer, read by the command line and the window alike.

They are what a library does on its own, and so a choice for each computer it is
opened on: the first, ``fetch_to_read``, lets PaperDesk ask arXiv for the PDF of a
paper as soon as it is marked to-read, which one computer (a laptop on a metered
line) may want off while another wants it on. So they live in the data folder, in
``library-settings.json``, under the library's absolute path (as the list of known
libraries names it), not in the library file, which stays the same everywhere it is
copied or shared. Every setting is off, or its default, until the user sets it.

The file is rewritten whole (``files.atomic_write``) under a lock, so two programs
setting at once both count; a file that cannot be read is read as no settings.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from paperdesk.core.db import files
from paperdesk.core.db.paths import data_dir
from paperdesk.core.model.errors import LibraryError

FILE = "library-settings.json"
DEFAULTS: dict[str, Any] = {
    "fetch_to_read": False,  # fetch the arXiv PDF of a paper when it is marked to-read
}


def _path() -> Path:
    return data_dir() / FILE


def _everything() -> dict[str, dict[str, Any]]:
    try:
        data = json.loads(_path().read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


@contextlib.contextmanager
def _locked() -> Iterator[None]:
    from filelock import FileLock

    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    with FileLock(folder / f"{FILE}.lock", mode=0o600):
        yield


class LibrarySettings:
    """``lib.settings``: ``get(name)`` and ``set(name, value)`` of ``DEFAULTS``' names."""

    def __init__(self, path: Path) -> None:
        self.key = os.path.abspath(path)

    def get(self, name: str) -> Any:
        default = DEFAULTS[name]  # KeyError: a setting PaperDesk does not have
        mine = _everything().get(self.key)
        value = mine.get(name, default) if isinstance(mine, dict) else default
        return value if type(value) is type(default) else default

    def set(self, name: str, value: Any) -> None:
        if name not in DEFAULTS:
            raise LibraryError(f"no setting named {name!r}; the settings are "
                               f"{', '.join(sorted(DEFAULTS))}")
        if type(value) is not type(DEFAULTS[name]):
            raise LibraryError(f"{name} takes {type(DEFAULTS[name]).__name__}, not {value!r}")
        try:
            with _locked():
                data = _everything()
                mine = data.get(self.key)
                mine = mine if isinstance(mine, dict) else {}
                mine[name] = value
                data[self.key] = mine
                with files.atomic_write(_path(), max_mode=0o600) as temp:
                    temp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n",
                                    encoding="utf-8")
        except OSError as exc:
            raise LibraryError(f"{_path()}: the setting could not be saved: "
                               f"{exc.strerror or exc}") from None

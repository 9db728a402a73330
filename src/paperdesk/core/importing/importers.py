"""The importers PaperDesk has, in the order their sniffers are asked: an explicit
list, not registration by import side effect.

Each is (kind, sniff(bytes) -> bool, import function); the first whose sniff
says yes imports the file. A file none recognises is offered to the first. The
import function takes the file's bytes from a ``FileBytes``, so that it alone
holds them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from paperdesk.core.importing import bibtex_import, digest_import
from paperdesk.core.importing.file_report import FileBytes, FileReport
from paperdesk.core.model.digest import looks_like_digest
from paperdesk.core.model.jobs import CancelFlag, Progress

if TYPE_CHECKING:
    from paperdesk.core.library import Library

Importer = Callable[["Library", Path, FileBytes, Progress, "CancelFlag | None"], FileReport]


def _digest(lib: Library, path: Path, data: FileBytes, progress: Progress,
            cancel: CancelFlag | None) -> FileReport:
    return digest_import.import_digest(lib, path, data.take(), progress, cancel)


IMPORTERS: list[tuple[str, Callable[[bytes], bool], Importer]] = [
    ("digest", looks_like_digest, _digest),
    ("bibtex", bibtex_import.sniff, bibtex_import.import_bib),
]

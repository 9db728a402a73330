"""The core as the GUI and the CLI see it: the ``Library`` facade and the value types,
constants and helpers that go with it. The front ends import nothing else of the core
(an import-linter contract in pyproject.toml checks it), and no module of it: every
feature is an object on the library (``lib.queue``, ``lib.imports``: ``core/areas.py``),
and so is the machinery behind it (searching, syncing, merging, writing an export).

Each name is written once, in ``_DOOR`` under the module that holds it; ``__all__`` and
the loading are made from it. A
name is loaded from its module when it is first asked for, so a command that needs
little (``stats``) loads no more of the core than it did before this door.
"""

from __future__ import annotations

import importlib
from typing import Any

_DOOR: dict[str, str] = {
    "paperdesk.core.bibtex.export_report": "ExportReport",
    "paperdesk.core.bibtex.formats": "FORMATS Format",
    "paperdesk.core.bibtex.latex_read": "plain_text",
    "paperdesk.core.curation.curation": "MAX_YEAR MIN_YEAR",
    "paperdesk.core.db.backup": "backups_folder check_backup default_backup_path",
    "paperdesk.core.db.changes": "ATTACHMENTS DETAIL DUPLICATE_GROUPS PAPERS SIDEBAR_COUNTS SYNCS "
                                 "TABLE_ROWS TABLE_SET Changes Undo",
    "paperdesk.core.db.paths": "APP_NAME ENV_DATA ENV_LIBRARY data_dir demo_library_path "
                               "library_path resource seed_files",
    "paperdesk.core.db.schema": "STATUSES",
    "paperdesk.core.db.store": "restore translate",
    "paperdesk.core.demo": "open_demo",
    "paperdesk.core.duplicates.duplicates": "TIERS Group",
    "paperdesk.core.duplicates.merge": "CHOICES",
    "paperdesk.core.hub.hub": "DEFAULT_LIMITS Hub",
    "paperdesk.core.hub.today": "TodayResult",
    "paperdesk.core.importing.file_report": "ALREADY CANCELLED ERROR IMPORTED SKIPPED "
                                            "FileReport ImportResult",
    "paperdesk.core.importing.import_undo": "ImportRecord",
    "paperdesk.core.library": "Library Listener",
    "paperdesk.core.model.child_env": "tune_children",
    "paperdesk.core.model.errors": "Cancelled DuplicateError NoLibrary NotFound "
                                   "PaperDeskError PdfError QueryError",
    "paperdesk.core.model.jobs": "no_progress",
    "paperdesk.core.model.links": "naming_papers paper_links",
    "paperdesk.core.model.sources": "describe",
    "paperdesk.core.model.text": "author_line plural",
    "paperdesk.core.pdf.files_backup": "held restore_files",
    "paperdesk.core.pdf.highlights": "HIGHLIGHT_COLOURS",
    "paperdesk.core.pdf.indexer": "IndexReport",
    "paperdesk.core.pdf.sandbox": "PageBoxes PdfSandbox Rendered",
    "paperdesk.core.search.sorts": "SORTS",
    "paperdesk.core.sync.sync_states": "CHANGED CONFLICT FAILED OK PENDING WRITING",
    "paperdesk.core.sync.sync_write": "Outcome",
    "paperdesk.core.sync.syncs": "Sync",
}

# Where each name lives: {name: (its module, its name there)}.
_WHERE: dict[str, tuple[str, str]] = {name: (module, name) for module, names in _DOOR.items()
                                      for name in names.split()}

__all__ = sorted(_WHERE)  # made from _DOOR, as the loading is


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(where[0]), where[1])
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})

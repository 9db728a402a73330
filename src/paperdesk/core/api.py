"""The core as the GUI and the CLI see it: the ``Library`` facade and the value types,
constants and helpers that go with it. The front ends import nothing else of the core
(an import-linter contract in pyproject.toml checks it), and no module of it: every
feature is an object on the library (``lib.queue``, ``lib.imports``: ``core/areas.py``).

Each name is loaded from its module when it is first asked for, so a command that
needs little (``stats``) loads no more of the core than it did before this door.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from paperdesk.core.bibtex.bibtex_export import STYLES as EXPORT_STYLES
    from paperdesk.core.bibtex.citekey import key_status
    from paperdesk.core.bibtex.export_file import assemble
    from paperdesk.core.bibtex.export_file import foreign as foreign_file
    from paperdesk.core.bibtex.export_report import ExportReport
    from paperdesk.core.curation.curation import MAX_YEAR, MIN_YEAR
    from paperdesk.core.db.backup import backups_folder, check_backup, default_backup_path
    from paperdesk.core.db.changes import (
        DETAIL,
        DUPLICATE_GROUPS,
        PAPERS,
        SIDEBAR_COUNTS,
        SYNCS,
        TABLE_ROWS,
        TABLE_SET,
        Changes,
        Undo,
    )
    from paperdesk.core.db.paths import (
        APP_NAME,
        ENV_DATA,
        ENV_LIBRARY,
        data_dir,
        demo_library_path,
        library_path,
        resource,
        seed_files,
    )
    from paperdesk.core.db.schema import STATUSES
    from paperdesk.core.db.store import restore, translate
    from paperdesk.core.demo import open_demo
    from paperdesk.core.duplicates.duplicates import TIERS, Group
    from paperdesk.core.duplicates.merge import CHOICES, merged_row
    from paperdesk.core.hub.hub import DEFAULT_LIMITS, Hub
    from paperdesk.core.hub.today import TodayResult, fetch_today
    from paperdesk.core.importing.file_report import (
        ALREADY,
        CANCELLED,
        ERROR,
        IMPORTED,
        SKIPPED,
        FileReport,
        ImportResult,
    )
    from paperdesk.core.importing.import_undo import ImportRecord
    from paperdesk.core.library import Library, Listener
    from paperdesk.core.model.errors import (
        Cancelled,
        DuplicateError,
        NoLibrary,
        NotFound,
        PaperDeskError,
        QueryError,
    )
    from paperdesk.core.model.jobs import no_progress
    from paperdesk.core.model.links import paper_links
    from paperdesk.core.model.sources import describe
    from paperdesk.core.model.text import plural
    from paperdesk.core.search.query import compile_query
    from paperdesk.core.search.query_hints import empty_message, hint
    from paperdesk.core.search.sorts import SORTS
    from paperdesk.core.sync.sync_feed import AfterCommand, Pending, catch_up
    from paperdesk.core.sync.sync_states import CHANGED, CONFLICT, FAILED, OK, WRITING
    from paperdesk.core.sync.sync_write import Outcome
    from paperdesk.core.sync.syncs import (
        STYLES as SYNC_STYLES,
    )
    from paperdesk.core.sync.syncs import Sync

# Where each name lives: (module, name there).
_WHERE = {
    "ALREADY": ("paperdesk.core.importing.file_report", "ALREADY"),
    "APP_NAME": ("paperdesk.core.db.paths", "APP_NAME"),
    "AfterCommand": ("paperdesk.core.sync.sync_feed", "AfterCommand"),
    "CANCELLED": ("paperdesk.core.importing.file_report", "CANCELLED"),
    "CHANGED": ("paperdesk.core.sync.sync_states", "CHANGED"),
    "CHOICES": ("paperdesk.core.duplicates.merge", "CHOICES"),
    "CONFLICT": ("paperdesk.core.sync.sync_states", "CONFLICT"),
    "Changes": ("paperdesk.core.db.changes", "Changes"),
    "DEFAULT_LIMITS": ("paperdesk.core.hub.hub", "DEFAULT_LIMITS"),
    "DETAIL": ("paperdesk.core.db.changes", "DETAIL"),
    "DUPLICATE_GROUPS": ("paperdesk.core.db.changes", "DUPLICATE_GROUPS"),
    "DuplicateError": ("paperdesk.core.model.errors", "DuplicateError"),
    "ENV_DATA": ("paperdesk.core.db.paths", "ENV_DATA"),
    "ENV_LIBRARY": ("paperdesk.core.db.paths", "ENV_LIBRARY"),
    "ERROR": ("paperdesk.core.importing.file_report", "ERROR"),
    "EXPORT_STYLES": ("paperdesk.core.bibtex.bibtex_export", "STYLES"),
    "ExportReport": ("paperdesk.core.bibtex.export_report", "ExportReport"),
    "FAILED": ("paperdesk.core.sync.sync_states", "FAILED"),
    "FileReport": ("paperdesk.core.importing.file_report", "FileReport"),
    "Group": ("paperdesk.core.duplicates.duplicates", "Group"),
    "Hub": ("paperdesk.core.hub.hub", "Hub"),
    "IMPORTED": ("paperdesk.core.importing.file_report", "IMPORTED"),
    "ImportRecord": ("paperdesk.core.importing.import_undo", "ImportRecord"),
    "ImportResult": ("paperdesk.core.importing.file_report", "ImportResult"),
    "Library": ("paperdesk.core.library", "Library"),
    "Listener": ("paperdesk.core.library", "Listener"),
    "MAX_YEAR": ("paperdesk.core.curation.curation", "MAX_YEAR"),
    "MIN_YEAR": ("paperdesk.core.curation.curation", "MIN_YEAR"),
    "Cancelled": ("paperdesk.core.model.errors", "Cancelled"),
    "NoLibrary": ("paperdesk.core.model.errors", "NoLibrary"),
    "NotFound": ("paperdesk.core.model.errors", "NotFound"),
    "OK": ("paperdesk.core.sync.sync_states", "OK"),
    "Outcome": ("paperdesk.core.sync.sync_write", "Outcome"),
    "PAPERS": ("paperdesk.core.db.changes", "PAPERS"),
    "PaperDeskError": ("paperdesk.core.model.errors", "PaperDeskError"),
    "Pending": ("paperdesk.core.sync.sync_feed", "Pending"),
    "QueryError": ("paperdesk.core.model.errors", "QueryError"),
    "SIDEBAR_COUNTS": ("paperdesk.core.db.changes", "SIDEBAR_COUNTS"),
    "SKIPPED": ("paperdesk.core.importing.file_report", "SKIPPED"),
    "SORTS": ("paperdesk.core.search.sorts", "SORTS"),
    "STATUSES": ("paperdesk.core.db.schema", "STATUSES"),
    "SYNCS": ("paperdesk.core.db.changes", "SYNCS"),
    "SYNC_STYLES": ("paperdesk.core.sync.syncs", "STYLES"),
    "Sync": ("paperdesk.core.sync.syncs", "Sync"),
    "TABLE_ROWS": ("paperdesk.core.db.changes", "TABLE_ROWS"),
    "TABLE_SET": ("paperdesk.core.db.changes", "TABLE_SET"),
    "TIERS": ("paperdesk.core.duplicates.duplicates", "TIERS"),
    "TodayResult": ("paperdesk.core.hub.today", "TodayResult"),
    "Undo": ("paperdesk.core.db.changes", "Undo"),
    "WRITING": ("paperdesk.core.sync.sync_states", "WRITING"),
    "assemble": ("paperdesk.core.bibtex.export_file", "assemble"),
    "foreign_file": ("paperdesk.core.bibtex.export_file", "foreign"),
    "backups_folder": ("paperdesk.core.db.backup", "backups_folder"),
    "catch_up": ("paperdesk.core.sync.sync_feed", "catch_up"),
    "check_backup": ("paperdesk.core.db.backup", "check_backup"),
    "compile_query": ("paperdesk.core.search.query", "compile_query"),
    "data_dir": ("paperdesk.core.db.paths", "data_dir"),
    "default_backup_path": ("paperdesk.core.db.backup", "default_backup_path"),
    "demo_library_path": ("paperdesk.core.db.paths", "demo_library_path"),
    "describe": ("paperdesk.core.model.sources", "describe"),
    "paper_links": ("paperdesk.core.model.links", "paper_links"),
    "empty_message": ("paperdesk.core.search.query_hints", "empty_message"),
    "fetch_today": ("paperdesk.core.hub.today", "fetch_today"),
    "hint": ("paperdesk.core.search.query_hints", "hint"),
    "key_status": ("paperdesk.core.bibtex.citekey", "key_status"),
    "library_path": ("paperdesk.core.db.paths", "library_path"),
    "merged_row": ("paperdesk.core.duplicates.merge", "merged_row"),
    "no_progress": ("paperdesk.core.model.jobs", "no_progress"),
    "open_demo": ("paperdesk.core.demo", "open_demo"),
    "plural": ("paperdesk.core.model.text", "plural"),
    "resource": ("paperdesk.core.db.paths", "resource"),
    "restore": ("paperdesk.core.db.store", "restore"),
    "seed_files": ("paperdesk.core.db.paths", "seed_files"),
    "translate": ("paperdesk.core.db.store", "translate"),
}

__all__ = [
    "ALREADY",
    "APP_NAME",
    "CANCELLED",
    "CHANGED",
    "CHOICES",
    "CONFLICT",
    "DEFAULT_LIMITS",
    "DETAIL",
    "DUPLICATE_GROUPS",
    "ENV_DATA",
    "ENV_LIBRARY",
    "ERROR",
    "EXPORT_STYLES",
    "FAILED",
    "IMPORTED",
    "MAX_YEAR",
    "MIN_YEAR",
    "OK",
    "PAPERS",
    "SIDEBAR_COUNTS",
    "SKIPPED",
    "SORTS",
    "STATUSES",
    "SYNCS",
    "SYNC_STYLES",
    "TABLE_ROWS",
    "TABLE_SET",
    "TIERS",
    "WRITING",
    "AfterCommand",
    "Cancelled",
    "Changes",
    "DuplicateError",
    "ExportReport",
    "FileReport",
    "Group",
    "Hub",
    "ImportRecord",
    "ImportResult",
    "Library",
    "Listener",
    "NoLibrary",
    "NotFound",
    "Outcome",
    "PaperDeskError",
    "Pending",
    "QueryError",
    "Sync",
    "TodayResult",
    "Undo",
    "assemble",
    "backups_folder",
    "catch_up",
    "check_backup",
    "compile_query",
    "data_dir",
    "default_backup_path",
    "demo_library_path",
    "describe",
    "empty_message",
    "fetch_today",
    "foreign_file",
    "hint",
    "key_status",
    "library_path",
    "merged_row",
    "no_progress",
    "open_demo",
    "paper_links",
    "plural",
    "resource",
    "restore",
    "seed_files",
    "translate",
]


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(where[0]), where[1])
    globals()[name] = value
    return value

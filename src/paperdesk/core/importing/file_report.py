"""What every importer shares: the report of one file, its statuses, the result of
an import, and the changes of one file's write."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, overload

from paperdesk.core.db import changes as ch

IMPORTED = "imported"
ALREADY = "already imported"
ERROR = "error"
SKIPPED = "skipped"
CANCELLED = "cancelled"

READ_CHUNK = 4 * 2**20  # bytes read, or hashed, between checks for Cancel
# Why a .bib entry's key was not kept (``FileReport.renamed``).
RENAMED = {"is taken": "another paper has this very key",
           "is taken in another case": "another paper has this key in another case (BibTeX "
                                       "reads keys without case)",
           "is retired": "it left PaperDesk for another paper, which documents cite it for",
           "is not a usable key": "BibTeX or biber cannot read or cite this key"}
BULK_THRESHOLD = 200  # from this many new papers, index in bulk (per-row triggers cost 2x)


class FileBytes:
    """A file's bytes handed to its importer, which takes them (``take``): then no
    caller holds them, and the importer can let them go before its work ends (a
    100,000-entry .bib file's 140 MB before the duplicate check of its papers)."""

    def __init__(self, data: bytes) -> None:
        self._data: bytes | None = data

    def take(self) -> bytes:
        data, self._data = self._data, None
        if data is None:
            raise RuntimeError("a file's bytes are taken once")
        return data


@dataclass
class FileReport:
    path: str
    name: str
    status: str
    kind: str = "digest"
    entries: int = 0
    new_papers: int = 0
    merged: int = 0
    warnings: list[str] = field(default_factory=list)
    error: str | None = None
    digest_id: int | None = None
    paper_ids: list[int] = field(default_factory=list)  # every paper the file's entries went to
    created_ids: list[int] = field(default_factory=list)  # those the import added, in order
    likely_duplicates: int = 0  # new papers that may repeat one already in the library
    # .bib files: each entry merged into a paper ({key, line, paper_id, citekey, reason})
    # and each entry skipped ({line, key, reason}).
    merges: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[dict[str, Any]] = field(default_factory=list)
    # .bib files: each entry whose key was not kept ({line, old, new, why})
    renamed: list[dict[str, Any]] = field(default_factory=list)

    def merge_lines(self) -> list[str]:
        """``key -> paper (reason)``, one line per merged entry."""
        return [f"{m['key']} -> {m.get('citekey') or m['paper_id']} (paper {m['paper_id']}; "
                f"{m['reason']})" for m in self.merges]

    def rename_lines(self) -> list[str]:
        """``old -> new (line, why)``, one line per entry whose key was not kept."""
        return [f"{r['old']} -> {r['new']} (line {r['line']}: {r['why']})"
                for r in self.renamed]

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("paper_ids")
        data.pop("created_ids")
        return data

    @property
    def failed(self) -> bool:
        return self.status == ERROR


@dataclass(frozen=True)
class ImportResult(Sequence[FileReport]):
    """What an import did: a report per file (the result reads as their list) and
    the ``changes`` of every file that was written."""

    reports: list[FileReport]
    changes: ch.Changes = ch.NOTHING
    record: Any = None  # what it created, as kept for undoing it (import_undo.ImportRecord)

    @overload
    def __getitem__(self, index: int) -> FileReport: ...
    @overload
    def __getitem__(self, index: slice) -> list[FileReport]: ...
    def __getitem__(self, index: int | slice) -> FileReport | list[FileReport]:
        return self.reports[index]

    def __len__(self) -> int:
        return len(self.reports)

    @property
    def created_ids(self) -> list[int]:
        """The papers the import added, file by file, as their importers made them."""
        return [pid for r in self.reports for pid in r.created_ids]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, list):
            return self.reports == other
        return super().__eq__(other)


def file_changes(report: FileReport, kinds: Iterable[str] = ()) -> ch.Changes:
    """The changes of one file's import (papers added and filled, its digest row)."""
    kinds = {ch.PAPER_SET, ch.PAPERS, ch.DIGESTS, *kinds}
    if report.likely_duplicates:
        kinds.add(ch.CANDIDATES)
    return ch.Changes(f"Import {report.name}", frozenset(kinds), frozenset(report.paper_ids))

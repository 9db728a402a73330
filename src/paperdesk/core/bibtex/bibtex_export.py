"""Export: ``lib.bibtex.export(...)`` and ``export_to(path, ...)``, in any of the
formats of ``core/bibtex/formats.py``.

Entries are built straight from SQL rows, a batch at a time (in other processes for
large exports), by the format's writer (BibTeX and biblatex: ``bibtex_entry``, whose
output is byte for byte what bibtexparser v2's writer produces for the same entries),
and streamed into the file (``export_file.assemble``).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperdesk.core.bibtex import file_field, formats
from paperdesk.core.bibtex.bibtex_source import header_blocks
from paperdesk.core.bibtex.citekey import freeze, key_status, set_citekey, weak_provisional
from paperdesk.core.bibtex.export_file import assemble, foreign, refuse_foreign
from paperdesk.core.bibtex.export_query import (
    Tally,
    chosen_ids,
    id_batches,
    reader,
    rows_of,
    snapshot,
)
from paperdesk.core.bibtex.export_report import ExportReport
from paperdesk.core.bibtex.key_aliases import aliases
from paperdesk.core.db import changes as ch
from paperdesk.core.db import dbfile, files, papers_table
from paperdesk.core.db.database import Database
from paperdesk.core.model import workers
from paperdesk.core.model.errors import BibtexError as BibtexError
from paperdesk.core.model.errors import LibraryError
from paperdesk.core.model.jobs import CancelFlag, Progress, no_progress
from paperdesk.core.search.search import searched

if TYPE_CHECKING:
    from paperdesk.core.library import Library

PARALLEL_FROM = 20_000  # entries; fewer are exported here (starting processes costs more)
_BUFFER = 1 << 20  # bytes written to the file at a time


class Bibtex:
    """``lib.bibtex``: export, export to a file, and the user's own citation keys."""

    def __init__(self, lib: Library) -> None:
        self.lib = lib

    def set_citekey(self, paper_id: int, key: str) -> ch.Changes:
        return set_citekey(self.lib, paper_id, key)

    def weak_keys(self, ids: Iterable[int]) -> list[int]:
        """The papers among ``ids`` whose provisional key lacks a name or a year."""
        return weak_provisional(self.lib.db, ids)

    def freeze(self, ids: Iterable[int]) -> int:
        """The keys of ``ids`` have left PaperDesk (copied, dragged out): freeze them."""
        ids = list(ids)
        return self._freezing(ids, lambda: freeze(self.lib.db, ids))

    def _freeze_written(self, written: list[tuple[int, str]],
                        carried: Sequence[int] = ()) -> int:
        """An export's keys left PaperDesk: frozen on the papers that hold them now; those
        a merge carried onto the ``carried`` papers are now theirs (``papers_table``)."""
        return self._freezing([pid for pid, _ in written] + list(carried), lambda: (
            papers_table.freeze_as_written(self.lib.db, [key for _, key in written if key])
            + papers_table.freeze_listed(self.lib.db, carried)))

    def _freezing(self, ids: list[int], freezes: Callable[[], int]) -> int:
        """``freezes()`` in a write of its own; 0 for a library that cannot be written
        (its keys stay as they are, nor can they change)."""
        if dbfile.cannot_write(self.lib.db, self.lib.path):
            return 0
        with self.lib.write("Citation keys left PaperDesk", [ch.PAPERS], ids):
            return freezes()

    def export(self, ids: Iterable[int] | None = None, *, query: str | None = None,
               style: str = "bibtex", ascii: bool = False, notes: bool = False,
               progress: Progress = no_progress, cancel: CancelFlag | None = None,
               freeze: bool = False, as_written: bool = False,
               report: ExportReport | None = None) -> str:
        """The entries as one string (BibTeX: empty when there are none); ``freeze``:
        their keys are leaving PaperDesk, so they stop following the metadata;
        ``as_written`` and ``report``: as for ``paper_entry``."""
        parts: list[str] = []
        self.write(parts.append, ids, query=query, style=style, ascii=ascii, notes=notes,
                   progress=progress, cancel=cancel, freeze=freeze, as_written=as_written,
                   report=report)
        return "".join(parts)

    def write(self, write: Callable[[str], object], ids: Iterable[int] | None = None, *,
              style: str = "bibtex", **options: Any) -> int:
        """The whole file of ``style`` (as ``export``) through ``write``, part by part
        (``sys.stdout.write``: no text of many entries is built); the number of entries.
        ``options``: those of ``export``."""
        header, entries = self.stream(ids, style=style, **options)
        with contextlib.closing(entries):  # its processes and view end here, come what may
            return assemble(write, style, entries, header)

    def foreign(self, path: str | os.PathLike[str], style: str) -> str | None:
        """Why the file at ``path`` is not one an export of ``style`` replaces unasked
        (it holds something else: ``export_file.foreign``); None when it may be."""
        return foreign(Path(path), style)

    def key_status(self, paper_id: int) -> dict[str, Any]:
        """A paper's key and whether it may still change: id, citekey, frozen (true or
        false) and state (frozen, kept, provisional)."""
        return key_status(self.lib, paper_id)

    def stream(self, ids: Iterable[int] | None = None, *, query: str | None = None,
               style: str = "bibtex", ascii: bool = False, notes: bool = False,
               progress: Progress = no_progress, cancel: CancelFlag | None = None,
               freeze: bool = False, as_written: bool = False,
               report: ExportReport | None = None,
               encoded: bool = False,
               with_files: bool = False) -> tuple[list[str], Generator[Any, None, None]]:
        """The ``@preamble``/``@string`` blocks the entries need (those of the .bib files
        they came from; none for CSL-JSON), and the entries one at a time (UTF-8 bytes
        with ``encoded``); ``with_files``: each with its PDFs in JabRef's ``file`` field."""
        written_as = formats.get(style)  # BibtexError for a style there is not
        if with_files and not written_as.header:
            raise BibtexError(f"--files writes BibTeX's file field; {style} has none")
        chosen = self._chosen(ids, query)
        if report is not None:
            report.repeated += papers_table.repeated_keys(self.lib.db, chosen)
        header = self.header(chosen, ascii=ascii) if written_as.header else []
        entries = self._generate(chosen, style, ascii, notes, progress, cancel, freeze,
                                 as_written, report, encoded)
        if with_files:
            entries = file_field.with_files(entries, file_field.by_key(self.lib.db,
                                                                        self.lib.path))
        return header, entries

    def header(self, chosen: list[int] | None, *, ascii: bool = False) -> list[str]:
        """The ``@preamble`` and ``@string`` blocks the entries of ``chosen`` (None: all)
        need: those of the .bib files they were imported from, and of imported files
        that held definitions only."""
        db = self.lib.db
        known = [r[0] for r in db.execute("SELECT id FROM bib_files ORDER BY id")]
        if not known:
            return []  # no .bib file was imported: nothing defined (and no table scan)
        # Each file's papers are found on the index of papers.bib_file (schema 0015).
        if chosen is None:
            # A file goes when one of its papers is out of the trash, or when it has
            # none at all (definitions only, journal abbreviations: with every export).
            files = [f for f in known if db.execute(
                "SELECT NOT EXISTS (SELECT 1 FROM papers WHERE bib_file = ?1) OR EXISTS "
                "(SELECT 1 FROM papers WHERE bib_file = ?1 AND deleted_at IS NULL)",
                [f]).fetchone()[0]]
        else:
            wanted = set(chosen)
            files = [f for f in known if not wanted.isdisjoint(
                r[0] for r in db.execute("SELECT id FROM papers WHERE bib_file = ?", [f]))
                or db.execute("SELECT 1 FROM papers WHERE bib_file = ? LIMIT 1",
                              [f]).fetchone() is None]
        if not files:
            return []
        rows = db.execute(f"SELECT preambles, strings FROM bib_files WHERE id IN "
                          f"({','.join('?' * len(files))}) ORDER BY id", files).fetchall()
        return header_blocks(rows, ascii=ascii)

    def export_to(self, path: str | os.PathLike[str], ids: Iterable[int] | None = None, *,
                  query: str | None = None, style: str = "bibtex", ascii: bool = False,
                  notes: bool = False, progress: Progress = no_progress,
                  cancel: CancelFlag | None = None, as_written: bool = False,
                  report: ExportReport | None = None, overwrite: bool = False,
                  with_files: bool = False) -> int:
        """Write the entries to ``path`` (whole or not at all; over a file that holds
        something else only with ``overwrite``); the number written, their keys frozen."""
        path = Path(path)
        try:  # before any key is frozen (atomic_write checks again as it writes)
            files.refuse_destination(path)
        except LibraryError as exc:
            raise BibtexError(str(exc)) from None
        if not overwrite:
            refuse_foreign(path, style)
        header, entries = self.stream(ids, query=query, style=style, ascii=ascii, notes=notes,
                                      progress=progress, cancel=cancel, freeze=True,
                                      as_written=as_written, report=report, encoded=True,
                                      with_files=with_files)
        try:
            # Entry by entry into a large buffer: never a text of many entries (megabytes).
            with contextlib.closing(entries), files.atomic_write(path, kind="tmp") as temp, \
                    open(temp, "wb", buffering=_BUFFER) as handle:
                return assemble(handle.write, style, entries, [h.encode() for h in header],
                                binary=True)
        except OSError as exc:
            raise BibtexError(f"{path}: cannot write ({exc.strerror or exc})") from None

    def entries(self, ids: Iterable[int] | None = None, *, query: str | None = None,
                style: str = "bibtex", ascii: bool = False, notes: bool = False,
                progress: Progress = no_progress,
                cancel: CancelFlag | None = None, freeze: bool = False) -> Iterator[str]:
        """The entries' text one at a time, in the order of ``ids`` / the query / added;
        with ``freeze``, their keys are frozen once the last entry has been read."""
        return self.stream(ids, query=query, style=style, ascii=ascii, notes=notes,
                           progress=progress, cancel=cancel, freeze=freeze)[1]

    def _chosen(self, ids: Iterable[int] | None, query: str | None) -> list[int] | None:
        if ids is not None:
            chosen = self.lib.require(ids)
            if query:
                matching = set(searched(self.lib, query).ids)
                chosen = [i for i in chosen if i in matching]
            return chosen
        if query:
            return list(searched(self.lib, query).ids)
        return None

    def _generate(self, chosen: list[int] | None, style: str, ascii: bool, notes: bool,
                  progress: Progress, cancel: CancelFlag | None, freeze: bool = False,
                  as_written: bool = False, report: ExportReport | None = None,
                  encoded: bool = False) -> Generator[Any, None, None]:
        written: list[tuple[int, str]] = []  # (paper, the key written) not frozen yet
        with snapshot(self.lib.db) as view:
            ids = chosen_ids(view.db, chosen)
            carried = papers_table.carried(view.db) if freeze else set()
            parallel = len(ids) >= PARALLEL_FROM and view.version is not None
            args = (str(view.path), view.identity, view.version, notes, style, ascii,
                    as_written, report is not None, encoded,
                    aliases(view.db) if formats.get(style).aliases else None)
            # This process exports a share too: with processes on every core, its own
            # work (taking their entries, writing the file) waited for one.
            with workers.Workers(workers.helpers() - 1 if parallel else 0,
                                 "paperdesk-exporter") as pool:
                tally, batches = Tally(progress, len(ids)), id_batches(ids, cancel)
                for entries, part, unfrozen in pool.run(batch_exporter, args, batches, cancel,
                                                         batch_exporter(*args, db=view.db),
                                                         helping=True):
                    if report is not None:
                        report.add(part)
                    written += unfrozen  # keys frozen already need no write
                    yield from entries
                    tally.add(len(entries))
                tally.end()
        if freeze and (written or carried):  # a key a merge carried is the paper's now
            self._freeze_written(written, [pid for pid in ids if pid in carried])


def batch_exporter(path: str, identity: Any, version: int | None, notes: bool, style: str,
                   ascii: bool, as_written: bool, reported: bool, encoded: bool,
                   known_as: dict[int, str] | None,
                   db: Database | None = None) -> Callable[[list[int]], Any]:
    """What exports a batch of papers (their ids): their entries (UTF-8 bytes when
    ``encoded``), what was changed on the way (an ``ExportReport`` when ``reported``)
    and those whose keys are not frozen yet. ``known_as``: each paper's aliases
    (``key_aliases``), for the formats that write them (biblatex).

    Read through ``db`` (here: the export's view, ``export_query.snapshot``), or, in an
    exporting process, through a read-only connection of its own to the library at
    ``path``. That one reads a batch only when the library is the one the export began
    on, as it was (the same file ``identity``, ``user_version`` at ``version``); when it
    is not, or cannot be read, it gives None and the export does that batch here.
    """
    made = partial(formats.get(style).writer(), ascii=ascii, as_written=as_written)
    read = partial(rows_of, db) if db is not None else reader(path, identity, version)

    def export(ids: list[int]) -> Any:
        rows = read(ids, notes)
        if rows is None:
            return None
        report = ExportReport() if reported else None
        if known_as:
            entries = [made(columns, tags, texts, report=report, ids=known_as.get(columns[0]))
                       for columns, tags, texts in rows]
        else:
            entries = [made(columns, tags, texts, report=report) for columns, tags, texts in rows]
        return ([e.encode() for e in entries] if encoded else entries, report,
                [(columns[0], columns[1]) for columns, _, _ in rows if not columns[16]])

    return export

"""BibTeX export: ``lib.bibtex.export(...)`` and ``export_to(path, ...)``.

Entries are built straight from SQL rows and written by a streaming writer whose output
is byte for byte what bibtexparser v2's writer produces for the same entries
(``bibtexparser.write_string(library, unparse_stack=[])``); the tests hold it to that.

Preprints are ``@misc`` (BibTeX) or ``@online`` (biblatex). Only what is known
is written: names as ``author``, else the organisation as ``{{DeepSeek}}``,
else no author at all (an author count is not a name). Text fields are escaped
(``core/bibtex/latex.py``); ``url``, ``doi`` and ``eprint`` are written as they are.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperdesk.core.bibtex.bibtex_source import header_blocks, source_entry
from paperdesk.core.bibtex.citekey import freeze, set_citekey, weak_provisional
from paperdesk.core.bibtex.export_file import assemble, refuse_foreign
from paperdesk.core.bibtex.export_query import (
    Tally,
    chosen_ids,
    id_batches,
    reader,
    rows_of,
    snapshot,
)
from paperdesk.core.bibtex.export_report import ExportReport, balanced, checked_row, field_writer
from paperdesk.core.bibtex.key_aliases import aliases, ids_line
from paperdesk.core.bibtex.latex import escape, protect_title, title_texts
from paperdesk.core.bibtex.names import bibtex_name, looks_like_organisation
from paperdesk.core.db import changes as ch
from paperdesk.core.db import dbfile, files, papers_table
from paperdesk.core.model import workers
from paperdesk.core.model.errors import BibtexError as BibtexError
from paperdesk.core.model.errors import LibraryError
from paperdesk.core.model.jobs import CancelFlag, Progress, no_progress
from paperdesk.core.model.sources import parse as parse_sources

if TYPE_CHECKING:
    from paperdesk.core.library import Library

STYLES = ("bibtex", "biblatex")
FORMATS = (*STYLES, "csl-json")  # what export, export_to and entries write
MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
PREPRINT_TYPES = frozenset({"misc", "online", "electronic", "www"})

PARALLEL_FROM = 20_000  # entries; fewer are exported here (starting processes costs more)
_BUFFER = 1 << 20  # bytes written to the file at a time


def paper_entry(row: Sequence[Any], tags: list[str], notes: list[str], *, style: str,
                ascii: bool, as_written: bool = False, report: ExportReport | None = None,
                ids: str | None = None) -> str:
    """One row of ``export_query.COLUMNS`` as an entry, laid out as bibtexparser's writer does.

    A paper imported from a .bib file is written as it was written
    (``core/bibtex/bibtex_source.py``; ``as_written``: without even its bare specials
    escaped), with PaperDesk's own text only where it changed. What was repaired or
    left out is counted in ``report`` (``export_report``). ``ids``: the keys it is also
    known by (``key_aliases``), written first unless the entry has an ``ids`` field.
    """
    (pid, key, title, abstract, authors, organization, published, year, arxiv_id, doi, url,
     bib_type, bib_fields, year_inferred, _sources) = row[:15]
    bib_source = row[15] if len(row) > 15 else None
    key = key or f"paper{pid}"
    mine = checked_row(row, report)  # identifiers PaperDesk writes itself: checked again
    if bib_source:
        source = json.loads(bib_source)
        # authors as stored (JSON): compared with what was seen without decoding it
        current = dict(zip(SEEN_ORDER, (title, authors or "[]", organization, year,
                                        published, arxiv_id, doi, url, abstract), strict=True))
        return source_entry(
            source, key, current, tags, notes,
            lambda groups: _groups(mine, tags, json.loads(bib_fields) if bib_fields else {},
                                   source.get("names", {}), groups, style=style, ascii=ascii),
            lambda name: [f"\t{name} = {{" + escape("\n\n".join(notes), ascii=ascii) + "},"],
            ascii=ascii, field=field_writer(key, as_written, report), ids=ids)
    extra: dict[str, str] = json.loads(bib_fields) if bib_fields else {}
    if not bib_type or bib_type in PREPRINT_TYPES:
        entry_type = "online" if style == "biblatex" else "misc"
    else:
        entry_type = bib_type
    lines = [f"@{entry_type}{{{key},"]
    if ids and "ids" not in extra:
        lines.append(ids_line(ids))
    # every group's lines go straight to the entry's, in the order of _GROUPS
    _group_lines(dict.fromkeys(_GROUPS, lines).get, True, mine, tags, extra, {}, style, ascii)
    if notes:  # the user's own notes: never in a note field, which is the entry's
        field = "paperdesk-notes" if "annote" in extra else "annote"
        lines.append(f"\t{field} = {{" + escape("\n\n".join(notes), ascii=ascii) + "},")
    if year and year_inferred and "howpublished" not in extra and "addendum" not in extra:
        # An inferred year is printed with its doubt, never as a definite one.
        lines.append("\taddendum = {" + INFERRED_NOTE + "}," if style == "biblatex" else
                     "\thowpublished = {" + INFERRED_NOTE + "},")
    for name, value in extra.items():
        if name not in _WRITTEN:
            lines.append(f"\t{name} = {balanced(value)},")
    lines[-1] = lines[-1][:-1]  # no comma after the last field, as bibtexparser writes it
    return "\n".join(lines) + "\n}\n"


_GROUPS = ("people", "title", "date", "arxiv", "doi", "url", "abstract", "keywords")
SEEN_ORDER = ("title", "authors", "organization", "year", "published", "arxiv_id", "doi", "url",
              "abstract")


def _groups(row: Sequence[Any], tags: list[str], extra: dict[str, str], names: dict[str, str],
            only: set[str] | None, *, style: str, ascii: bool) -> dict[str, list[str]]:
    """The lines PaperDesk writes for each group of fields (all, or those in ``only``);
    ``names``: display name -> the name as a .bib file wrote it."""
    out: dict[str, list[str]] = {group: [] for group in _GROUPS
                                 if only is None or group in only}
    _group_lines(out.get, only is None, row, tags, extra, names, style, ascii)
    return out


def _group_lines(want: Callable[[str], list[str] | None], full: bool, row: Sequence[Any],
                 tags: list[str], extra: dict[str, str], names: dict[str, str], style: str,
                 ascii: bool) -> None:
    """``_groups``' lines, each added to ``want(group)`` (no group when None); ``full``:
    the whole entry, which adds a sort key and an arXiv URL where they are missing."""
    (_pid, _key, title, abstract, authors, organization, published, year, arxiv_id, doi, url,
     _bib_type, _bib_fields, _year_inferred, sources) = row[:15]
    protected = None  # the title's text, when escaped with the key's
    if (add := want("people")) is not None:
        if authors and authors != "[]":
            hub = from_hub(sources, "authors")  # plain names, split here for BibTeX
            add.append("\tauthor = {" + " and ".join(
                names.get(n) or (_name(n, organization, ascii) if hub else escape(n, ascii=ascii))
                for n in json.loads(authors)) + "},")
        elif organization:
            add.append("\tauthor = {{" + escape(organization, ascii=ascii) + "}},")
        elif style == "bibtex" and full and title:
            protected, plain = title_texts(title, ascii=ascii)
            add.append("\tkey = {" + plain + "},")  # plain styles sort on it
    if (add := want("title")) is not None and (title or full):
        add.append("\ttitle = {" + (protected or protect_title(title, ascii=ascii)) + "},")
    if (add := want("date")) is not None:
        month = int(published[5:7]) if published and len(published) >= 7 else None
        if style == "biblatex":
            date = published
            if not date and year:
                raw_month = extra.get("month", "").strip("{}\"").lower()[:3]
                date = f"{year}-{MONTHS.index(raw_month) + 1:02d}" if raw_month in MONTHS else (
                    str(year))
            if date:
                add.append(f"\tdate = {{{date}}},")
        else:
            if year:
                add.append(f"\tyear = {{{year}}},")
            if month or "month" in extra:
                add.append(f"\tmonth = {MONTHS[month - 1] if month else extra['month']},")
        for name in ("year", "date"):  # a date PaperDesk could not read, as it was written
            if not year and not published and name in extra:
                add.append(f"\t{name} = {extra[name]},")
    if (add := want("arxiv")) is not None and arxiv_id:
        add.append(f"\teprint = {{{arxiv_id}}},\n\tarchivePrefix = {{arXiv}},")
        if "primaryclass" in extra:
            add.append(f"\tprimaryClass = {extra['primaryclass']},")
    if (add := want("doi")) is not None and doi:
        add.append(f"\tdoi = {{{doi}}},")
    if (add := want("url")) is not None and (url or (arxiv_id and full)):
        add.append(f"\turl = {{{url or 'https://arxiv.org/abs/' + arxiv_id}}},")
    if (add := want("abstract")) is not None and abstract:
        add.append("\tabstract = {" + escape(abstract, ascii=ascii) + "},")
    if (add := want("keywords")) is not None and tags:
        add.append("\tkeywords = {" + ", ".join(escape(t, ascii=ascii) for t in tags) + "},")


INFERRED_NOTE = "year inferred from a digest, not confirmed"


def from_hub(sources: str | None, name: str) -> bool:
    return parse_sources(sources).get(name, {}).get("source") == "hf"


def _name(name: str, organization: str | None, ascii: bool) -> str:
    """A name from a digest or the Hub as BibTeX reads it: "van der Berg, Jan";
    an organisation braced whole, so it is not split into first and last names."""
    if looks_like_organisation(name, (organization,)):
        return "{" + escape(name, ascii=ascii) + "}"
    return escape(bibtex_name(name), ascii=ascii)


# Fields paper_entry writes from columns; extras under these names are not repeated.
_WRITTEN = frozenset("author key title date year month eprint archiveprefix primaryclass doi "
                     "url abstract keywords note".split())


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

    def _freeze_written(self, written: list[tuple[int, str]], carried: list[int] = ()) -> int:
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
        header, entries = self.stream(ids, query=query, style=style, ascii=ascii, notes=notes,
                                      progress=progress, cancel=cancel, freeze=freeze,
                                      as_written=as_written, report=report)
        parts: list[str] = []
        with contextlib.closing(entries):  # its processes and view end here, come what may
            assemble(parts.append, style, entries, header)
        return "".join(parts)

    def stream(self, ids: Iterable[int] | None = None, *, query: str | None = None,
               style: str = "bibtex", ascii: bool = False, notes: bool = False,
               progress: Progress = no_progress, cancel: CancelFlag | None = None,
               freeze: bool = False, as_written: bool = False,
               report: ExportReport | None = None,
               encoded: bool = False) -> tuple[list[str], Iterator[Any]]:
        """The ``@preamble``/``@string`` blocks the entries need (those of the .bib files
        they came from; none for CSL-JSON), and the entries one at a time (UTF-8 bytes
        with ``encoded``)."""
        if style not in FORMATS:
            raise BibtexError(f"unknown style {style!r}: use bibtex, biblatex or csl-json")
        chosen = self._chosen(ids, query)
        header = self.header(chosen, ascii=ascii) if style in STYLES else []
        return header, self._generate(chosen, style, ascii, notes, progress, cancel, freeze,
                                      as_written, report, encoded)

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
                  report: ExportReport | None = None, overwrite: bool = False) -> int:
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
                                      as_written=as_written, report=report, encoded=True)
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
                matching = set(self.lib.search(query).ids)
                chosen = [i for i in chosen if i in matching]
            return chosen
        if query:
            return list(self.lib.search(query).ids)
        return None

    def _generate(self, chosen: list[int] | None, style: str, ascii: bool, notes: bool,
                  progress: Progress, cancel: CancelFlag | None, freeze: bool = False,
                  as_written: bool = False, report: ExportReport | None = None,
                  encoded: bool = False) -> Iterator[Any]:
        written: list[tuple[int, str]] = []  # (paper, the key written) not frozen yet
        with snapshot(self.lib.db) as view:
            ids = chosen_ids(view.db, chosen)
            carried = papers_table.carried(view.db) if freeze else set()
            parallel = len(ids) >= PARALLEL_FROM and view.version is not None
            args = (str(view.path), view.identity, view.version, notes, style, ascii,
                    as_written, report is not None, encoded,
                    aliases(view.db) if style == "biblatex" else None)
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


def batch_exporter(path: str, identity: Any, version: int, notes: bool, style: str,
                   ascii: bool, as_written: bool, reported: bool, encoded: bool,
                   known_as: dict[int, str] | None, db: Any = None) -> Callable[[list[int]], Any]:
    """What exports a batch of papers (their ids): their entries (UTF-8 bytes when
    ``encoded``), what was changed on the way (an ``ExportReport`` when ``reported``)
    and those whose keys are not frozen yet. ``known_as``: each paper's aliases
    (``key_aliases``), for biblatex.

    Read through ``db`` (here: the export's view, ``export_query.snapshot``), or, in an
    exporting process, through a read-only connection of its own to the library at
    ``path``. That one reads a batch only when the library is the one the export began
    on, as it was (the same file ``identity``, ``user_version`` at ``version``); when it
    is not, or cannot be read, it gives None and the export does that batch here.
    """
    if style == "csl-json":
        from paperdesk.core.bibtex.csl_json import item_text
        made = partial(item_text, ascii=ascii)
    else:
        made = partial(paper_entry, style=style, ascii=ascii, as_written=as_written)
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

"""BibTeX export: ``lib.bibtex.export(...)`` and ``export_to(path, ...)``.

Entries are built straight from SQL rows and written by a streaming writer
whose output is byte for byte what bibtexparser v2's writer produces for the
same entries (``bibtexparser.write_string(library, unparse_stack=[])``); the
tests hold it to that, and bibtexparser reads it back to the same fields.

Preprints are ``@misc`` (BibTeX) or ``@online`` (biblatex). Only what is known
is written: names as ``author``, else the organisation as ``{{DeepSeek}}``,
else no author at all (an author count is not a name). Text fields are escaped
(``core/bibtex/latex.py``); ``url``, ``doi`` and ``eprint`` are written as they are.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from paperdesk.core.bibtex.bibtex_source import header_blocks, source_entry
from paperdesk.core.bibtex.citekey import freeze, set_citekey, weak_provisional
from paperdesk.core.bibtex.export_file import assemble
from paperdesk.core.bibtex.export_report import ExportReport, balanced, checked_row, field_writer
from paperdesk.core.bibtex.latex import escape, protect_title, title_texts
from paperdesk.core.bibtex.names import bibtex_name, looks_like_organisation
from paperdesk.core.db import changes as ch
from paperdesk.core.db import files
from paperdesk.core.db.dbfile import cannot_write
from paperdesk.core.model.errors import BibtexError as BibtexError
from paperdesk.core.model.errors import LibraryError
from paperdesk.core.model.jobs import CancelFlag, Progress, check_cancel, no_progress
from paperdesk.core.model.sources import parse as parse_sources

if TYPE_CHECKING:
    from paperdesk.core.library import Library

STYLES = ("bibtex", "biblatex")
FORMATS = (*STYLES, "csl-json")  # what export, export_to and entries write
MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
PREPRINT_TYPES = frozenset({"misc", "online", "electronic", "www"})

_COLUMNS = ("p.id, p.citekey, p.title, p.abstract, p.authors, p.organization, p.published, "
            "p.year, p.arxiv_id, p.doi, p.url, p.bib_type, p.bib_fields, p.year_inferred, "
            "p.sources, p.bib_source, p.citekey_frozen")
_BATCH = 1000  # entries between checks of the cancel flag
_BUFFER = 1 << 20  # bytes written to the file at a time


class ExportRow(NamedTuple):
    """What the export query gives for one paper (``export_rows``): its row of
    ``_COLUMNS`` (as ``paper_entry`` and ``csl_json.item_text`` read it), its tags and,
    when asked for, its notes."""

    columns: Sequence[Any]
    tags: list[str]
    notes: list[str]

    @property
    def paper_id(self) -> int:
        return self.columns[0]

    @property
    def key_frozen(self) -> bool:
        return bool(self.columns[16])


def paper_entry(row: Sequence[Any], tags: list[str], notes: list[str], *, style: str,
                ascii: bool, as_written: bool = False, report: ExportReport | None = None) -> str:
    """One row of ``_COLUMNS`` as an entry, laid out as bibtexparser's writer does.

    A paper imported from a .bib file is written as it was written
    (``core/bibtex/bibtex_source.py``; ``as_written``: without even its bare specials
    escaped), with PaperDesk's own text only where it changed. What was repaired or
    left out is counted in ``report`` (``export_report``).
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
            ascii=ascii, field=field_writer(key, as_written, report))
    extra: dict[str, str] = json.loads(bib_fields) if bib_fields else {}
    if not bib_type or bib_type in PREPRINT_TYPES:
        entry_type = "online" if style == "biblatex" else "misc"
    else:
        entry_type = bib_type
    lines = [f"@{entry_type}{{{key},"]
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
        """The keys of ``ids`` have left PaperDesk (copied, dragged out): freeze them.
        A library that cannot be written keeps them as they are (nor can they change)."""
        ids = list(ids)
        if cannot_write(self.lib.db, self.lib.path):
            return 0
        with self.lib.write("Citation keys left PaperDesk", [ch.PAPERS], ids):
            return freeze(self.lib.db, ids)

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
        assemble(parts.append, style, entries, header)
        return "".join(parts)

    def stream(self, ids: Iterable[int] | None = None, *, query: str | None = None,
               style: str = "bibtex", ascii: bool = False, notes: bool = False,
               progress: Progress = no_progress, cancel: CancelFlag | None = None,
               freeze: bool = False, as_written: bool = False,
               report: ExportReport | None = None) -> tuple[list[str], Iterator[str]]:
        """The ``@preamble``/``@string`` blocks the entries need (those of the .bib files
        they came from; none for CSL-JSON), and the entries one at a time."""
        if style not in FORMATS:
            raise BibtexError(f"unknown style {style!r}: use bibtex, biblatex or csl-json")
        chosen = self._chosen(ids, query)
        header = self.header(chosen, ascii=ascii) if style in STYLES else []
        return header, self._generate(chosen, style, ascii, notes, progress, cancel, freeze,
                                      as_written, report)

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
                  report: ExportReport | None = None) -> int:
        """Write the entries to ``path`` (whole or not at all); the number written.
        The keys written have left PaperDesk: they are frozen."""
        path = Path(path)
        try:  # before any key is frozen (atomic_write checks again as it writes)
            files.refuse_destination(path)
        except LibraryError as exc:
            raise BibtexError(str(exc)) from None
        header, entries = self.stream(ids, query=query, style=style, ascii=ascii, notes=notes,
                                      progress=progress, cancel=cancel, freeze=True,
                                      as_written=as_written, report=report)
        try:
            # Entry by entry into a large buffer: no text of many entries is built (each
            # would be a fresh allocation of megabytes, its pages faulted in one by one).
            with files.atomic_write(path, kind="tmp") as temp, \
                    open(temp, "w", encoding="utf-8", newline="\n",
                         buffering=_BUFFER) as handle:
                return assemble(handle.write, style, entries, header)
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
                  as_written: bool = False,
                  report: ExportReport | None = None) -> Iterator[str]:
        written: list[int] = []
        if style == "csl-json":
            from paperdesk.core.bibtex.csl_json import item_text
            entry = partial(item_text, ascii=ascii, report=report)
        else:
            entry = partial(paper_entry, style=style, ascii=ascii, as_written=as_written,
                            report=report)
        for columns, tags, texts in _rows(self.lib, chosen, notes, progress, cancel):
            if not columns[16]:  # keys frozen already need no write
                written.append(columns[0])
            yield entry(columns, tags, texts)
        if freeze and written:
            self.freeze(written)


def export_rows(lib: Library, chosen: list[int] | None, notes: bool, progress: Progress,
                cancel: CancelFlag | None) -> Iterator[ExportRow]:
    """Each chosen paper's row of ``_COLUMNS`` with its tags and (when asked) notes,
    in the order of ``chosen`` (None: every paper not in the trash, by id)."""
    return (ExportRow(*row) for row in _rows(lib, chosen, notes, progress, cancel))


def _rows(lib: Library, chosen: list[int] | None, notes: bool, progress: Progress,
          cancel: CancelFlag | None) -> Iterator[tuple[Sequence[Any], list[str], list[str]]]:
    """``export_rows`` as plain tuples, read in batches (cancel checked once a batch)."""
    db = lib.db
    if chosen is None:
        # Counted and joined without a scan of the papers: those in the trash are few,
        # and their index holds only them.
        where, total = "WHERE p.deleted_at IS NULL", db.execute(
            "SELECT (SELECT count(*) FROM papers) - "
            "(SELECT count(*) FROM papers WHERE deleted_at IS NOT NULL)").fetchone()[0]
        source, order = "papers p", "p.id"
        join = ("WHERE x.paper_id NOT IN "
                "(SELECT id FROM papers WHERE deleted_at IS NOT NULL)")
    else:
        db.execute("CREATE TEMP TABLE IF NOT EXISTS bibtex_ids "
                   "(ord INTEGER PRIMARY KEY, id INTEGER NOT NULL)")
        db.execute("DELETE FROM temp.bibtex_ids")
        db.conn.executemany("INSERT INTO temp.bibtex_ids (ord, id) VALUES (?, ?)",
                            list(enumerate(chosen)))
        where, total = "", len(chosen)
        source, order = "temp.bibtex_ids i JOIN papers p ON p.id = i.id", "i.ord"
        join = "JOIN temp.bibtex_ids i ON i.id = x.paper_id"
    tags = _grouped(db, f"""SELECT x.paper_id, t.name FROM paper_tags x
                            JOIN tags t ON t.id = x.tag_id {join}
                            ORDER BY x.paper_id, t.name COLLATE NOCASE, t.id""")
    texts = _grouped(db, f"""SELECT x.paper_id, x.text FROM notes x {join}
                             ORDER BY x.paper_id, x.created, x.id""") if notes else {}
    progress(0.0, f"Exporting {total} papers")
    rows = db.execute(f"SELECT {_COLUMNS} FROM {source} {where} ORDER BY {order}")
    empty: list[str] = []
    tag_of, text_of, n = tags.get, texts.get, 0
    while batch := rows.fetchmany(_BATCH):
        check_cancel(cancel)
        if n:
            progress(n / max(total, 1), f"Exported {n} of {total}")
        n += len(batch)
        for row in batch:
            yield row, tag_of(row[0], empty), text_of(row[0], empty)
    progress(1.0, f"Exported {total} papers")


def _grouped(db: Any, sql: str) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for pid, value in db.execute(sql):
        out.setdefault(pid, []).append(value)
    return out

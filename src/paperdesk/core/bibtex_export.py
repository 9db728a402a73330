"""BibTeX export: ``lib.bibtex.export(...)`` and ``export_to(path, ...)``.

Entries are built straight from SQL rows and written by a streaming writer
whose output is byte for byte what bibtexparser v2's writer produces for the
same entries (``bibtexparser.write_string(library, unparse_stack=[])``); the
tests hold it to that, and bibtexparser reads it back to the same fields.

Preprints are ``@misc`` (BibTeX) or ``@online`` (biblatex). Only what is known
is written: names as ``author``, else the organisation as ``{{DeepSeek}}``,
else no author at all (an author count is not a name). Text fields are escaped
(``core/latex.py``); ``url``, ``doi`` and ``eprint`` are written as they are.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperdesk.core import changes as ch
from paperdesk.core.citekey import set_citekey
from paperdesk.core.errors import PaperDeskError
from paperdesk.core.jobs import CancelFlag, Progress, check_cancel, no_progress
from paperdesk.core.latex import escape, protect_title

if TYPE_CHECKING:
    from paperdesk.core.library import Library

STYLES = ("bibtex", "biblatex")
MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
PREPRINT_TYPES = frozenset({"misc", "online", "electronic", "www"})
SEPARATOR = "\n\n"  # between entries, as bibtexparser writes them

_COLUMNS = ("p.id, p.citekey, p.title, p.abstract, p.authors, p.organization, p.published, "
            "p.year, p.arxiv_id, p.doi, p.url, p.bib_type, p.bib_fields")
_CHUNK = 1000


class BibtexError(PaperDeskError):
    """A BibTeX export or import cannot be done (bad style, unreadable file...)."""


def entry_text(entry_type: str, key: str, fields: Sequence[tuple[str, str]]) -> str:
    """One entry as bibtexparser's writer lays it out; values carry their delimiters."""
    body = ",\n".join(f"\t{name} = {value}" for name, value in fields)
    return f"@{entry_type}{{{key},\n{body}\n}}\n" if fields else f"@{entry_type}{{{key},\n}}\n"


def _braced(text: str) -> str:
    return "{" + text + "}"


def paper_fields(row: Sequence[Any], tags: list[str], notes: list[str], *, style: str,
                 ascii: bool) -> tuple[str, str, list[tuple[str, str]]]:
    """(entry type, key, fields) for one row of ``_COLUMNS``."""
    (_pid, key, title, abstract, authors, organization, published, year, arxiv_id, doi, url,
     bib_type, bib_fields) = row
    extra: dict[str, str] = json.loads(bib_fields) if bib_fields else {}
    preprint = not bib_type or bib_type.lower() in PREPRINT_TYPES
    entry_type = ("online" if style == "biblatex" else "misc") if preprint else bib_type
    fields: list[tuple[str, str]] = []
    names = json.loads(authors) if authors and authors != "[]" else []
    if names:
        fields.append(("author", _braced(" and ".join(escape(n, ascii=ascii) for n in names))))
    elif organization:
        fields.append(("author", "{{" + escape(organization, ascii=ascii) + "}}"))
    elif style == "bibtex":  # plain styles sort on `key` when there is no author
        fields.append(("key", _braced(escape(title, ascii=ascii))))
    fields.append(("title", _braced(protect_title(title, ascii=ascii))))
    month = int(published[5:7]) if published and len(published) >= 7 else None
    if style == "biblatex":
        date = published
        if not date and year:
            raw_month = extra.get("month", "").strip("{}\"").lower()[:3]
            date = f"{year}-{MONTHS.index(raw_month) + 1:02d}" if raw_month in MONTHS else (
                str(year))
        if date:
            fields.append(("date", _braced(date)))
    else:
        if year:
            fields.append(("year", _braced(str(year))))
        if month or "month" in extra:
            fields.append(("month", MONTHS[month - 1] if month else extra["month"]))
    if arxiv_id:
        fields += [("eprint", _braced(arxiv_id)), ("archivePrefix", "{arXiv}")]
        if "primaryclass" in extra:
            fields.append(("primaryClass", extra["primaryclass"]))
    if doi:
        fields.append(("doi", _braced(doi)))
    if url or arxiv_id:
        fields.append(("url", _braced(url or f"https://arxiv.org/abs/{arxiv_id}")))
    if abstract:
        fields.append(("abstract", _braced(escape(abstract, ascii=ascii))))
    if tags:
        fields.append(("keywords", _braced(", ".join(escape(t, ascii=ascii) for t in tags))))
    if notes:
        fields.append(("note", _braced(escape("\n\n".join(notes), ascii=ascii))))
    written = {name.lower() for name, _ in fields} | {"month", "year", "date", "primaryclass"}
    fields += [(name, value) for name, value in extra.items() if name not in written]
    return entry_type, key, fields


class Bibtex:
    """``lib.bibtex``: export, export to a file, and the user's own citation keys."""

    def __init__(self, lib: Library) -> None:
        self.lib = lib

    def set_citekey(self, paper_id: int, key: str) -> ch.Changes:
        return set_citekey(self.lib, paper_id, key)

    def export(self, ids: Iterable[int] | None = None, *, query: str | None = None,
               style: str = "bibtex", ascii: bool = False, notes: bool = False,
               progress: Progress = no_progress, cancel: CancelFlag | None = None) -> str:
        """The entries as one string (empty when there are none)."""
        return SEPARATOR.join(self.entries(ids, query=query, style=style, ascii=ascii,
                                           notes=notes, progress=progress, cancel=cancel))

    def export_to(self, path: str | os.PathLike[str], ids: Iterable[int] | None = None, *,
                  query: str | None = None, style: str = "bibtex", ascii: bool = False,
                  notes: bool = False, progress: Progress = no_progress,
                  cancel: CancelFlag | None = None) -> int:
        """Write the entries to ``path`` (whole or not at all); the number written."""
        path = Path(path)
        entries = self.entries(ids, query=query, style=style, ascii=ascii, notes=notes,
                               progress=progress, cancel=cancel)
        count = 0
        try:
            handle = tempfile.NamedTemporaryFile(  # noqa: SIM115 (closed below, then renamed)
                "w", encoding="utf-8", newline="\n", dir=path.parent or ".",
                prefix=f".{path.name}.", suffix=".tmp", delete=False)
        except OSError as exc:
            raise BibtexError(f"{path}: cannot write ({exc.strerror or exc})") from None
        try:
            with handle:
                for entry in entries:
                    handle.write(SEPARATOR + entry if count else entry)
                    count += 1
            os.replace(handle.name, path)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(handle.name)
            raise BibtexError(f"{path}: cannot write ({exc.strerror or exc})") from None
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(handle.name)
            raise
        return count

    def entries(self, ids: Iterable[int] | None = None, *, query: str | None = None,
                style: str = "bibtex", ascii: bool = False, notes: bool = False,
                progress: Progress = no_progress,
                cancel: CancelFlag | None = None) -> Iterator[str]:
        """The entries' text one at a time, in the order of ``ids`` / the query / added."""
        if style not in STYLES:
            raise BibtexError(f"unknown style {style!r}: use bibtex or biblatex")
        chosen = self._chosen(ids, query)
        return self._generate(chosen, style, ascii, notes, progress, cancel)

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
                  progress: Progress, cancel: CancelFlag | None) -> Iterator[str]:
        db = self.lib.db
        if chosen is None:
            where, total = "WHERE p.deleted_at IS NULL", db.execute(
                "SELECT count(*) FROM papers WHERE deleted_at IS NULL").fetchone()[0]
            source, order = "papers p", "p.id"
            join = "JOIN papers p ON p.id = x.paper_id WHERE p.deleted_at IS NULL"
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
        for n, row in enumerate(rows):
            if n % _CHUNK == 0:
                check_cancel(cancel)
                if n:
                    progress(n / max(total, 1), f"Exported {n} of {total}")
            pid = row[0]
            entry_type, key, fields = paper_fields(
                row, tags.get(pid, empty), texts.get(pid, empty), style=style, ascii=ascii)
            yield entry_text(entry_type, key, fields)
        progress(1.0, f"Exported {total} papers")


def _grouped(db: Any, sql: str) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for pid, value in db.execute(sql):
        out.setdefault(pid, []).append(value)
    return out

"""One paper as a BibTeX or biblatex entry: ``paper_entry``, the writer of both formats
(``core/bibtex/formats.py``).

Preprints are ``@misc`` (BibTeX) or ``@online`` (biblatex). Only what is known
is written: names as ``author``, else the organisation as ``{{DeepSeek}}``,
else no author at all (an author count is not a name). Text fields are escaped
(``core/bibtex/latex.py``); ``url``, ``doi`` and ``eprint`` are written as they are.
Its output is byte for byte what bibtexparser v2's writer produces for the same entry
(``bibtexparser.write_string(library, unparse_stack=[])``); the tests hold it to that.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any

from paperdesk.core.bibtex.bibtex_source import read_stored, source_entry
from paperdesk.core.bibtex.export_report import ExportReport, balanced, checked_row, field_writer
from paperdesk.core.bibtex.key_aliases import ids_line
from paperdesk.core.bibtex.latex import escape, protect_title
from paperdesk.core.bibtex.names import hub_name, label_safe
from paperdesk.core.model.sources import parse as parse_sources

MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
PREPRINT_TYPES = frozenset({"misc", "online", "electronic", "www"})



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
        source = read_stored(bib_source)
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
    version = json.loads(row[17]) if len(row) > 17 and row[17] else None
    if version:  # the published version the user accepted: its venue entry
        mine = _as_published(mine, version)
        bib_type = version["entry_type"]
    if not bib_type or bib_type in PREPRINT_TYPES:
        entry_type = "online" if style == "biblatex" else "misc"
    else:
        entry_type = bib_type
    lines = [f"@{entry_type}{{{key},"]
    if ids and "ids" not in extra:
        lines.append(ids_line(ids))
    # every group's lines go straight to the entry's, in the order of _GROUPS
    _group_lines(dict.fromkeys(_GROUPS, lines).get, True, mine, tags, extra, {}, style, ascii)
    if version:
        lines[2:2] = venue_lines(version, ascii=ascii)  # after the names and the title
    if notes:  # the user's own notes: never in a note field, which is the entry's
        field = "paperdesk-notes" if "annote" in extra else "annote"
        lines.append(f"\t{field} = {{" + escape("\n\n".join(notes), ascii=ascii) + "},")
    if year and year_inferred and "howpublished" not in extra and "addendum" not in extra:
        # An inferred year is printed with its doubt, never as a definite one (in the
        # note when howpublished holds the arXiv id).
        field = "addendum" if style == "biblatex" else (
            "note" if arxiv_id and arxiv_printed(style, bib_type, extra) else "howpublished")
        lines.append(f"\t{field} = {{{INFERRED_NOTE}}},")
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
    (pid, key, title, abstract, authors, organization, published, year, arxiv_id, doi, url,
     bib_type, _bib_fields, _year_inferred, sources) = row[:15]
    key = key or f"paper{pid}"
    if (add := want("people")) is not None:
        # BibTeX styles make labels of names (biber makes its own, and mangles an escape
        # in braces): label_safe
        safe = label_safe if style == "bibtex" else str
        if authors and authors != "[]":
            hub = from_hub(sources, "authors")  # plain names, split here for BibTeX
            add.append("\tauthor = {" + " and ".join(
                names.get(n) or safe(hub_name(n, organization, ascii) if hub
                                     else escape(n, ascii=ascii))
                for n in json.loads(authors)) + "},")
        elif organization:
            add.append("\tauthor = {{" + safe(escape(organization, ascii=ascii)) + "}},")
        elif full and title:
            # No name to sort on or to make a label of: the citation key stands in, short
            # (the title there was printed twice by plainnat and was its \citep label).
            short = escape(key, ascii=True)
            add.append("\tkey = {" + label_safe(short) + "}," if style == "bibtex" else
                       "\tlabel = {" + short + "},")  # biblatex's stand-in label
    if (add := want("title")) is not None and (title or full):
        add.append("\ttitle = {" + protect_title(title, ascii=ascii) + "},")
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
        if full and arxiv_printed(style, bib_type, extra):
            add.append(f"\thowpublished = {{arXiv:{arxiv_id}}},")  # plain, alpha print it
    if (add := want("doi")) is not None and doi:
        add.append(f"\tdoi = {{{doi}}},")
    if (add := want("url")) is not None and (url or (arxiv_id and full)):
        add.append(f"\turl = {{{url or 'https://arxiv.org/abs/' + arxiv_id}}},")
    if (add := want("abstract")) is not None and abstract:
        add.append("\tabstract = {" + escape(abstract, ascii=ascii) + "},")
    if (add := want("keywords")) is not None and tags:
        add.append("\tkeywords = {" + ", ".join(escape(t, ascii=ascii) for t in tags) + "},")


INFERRED_NOTE = "year inferred from a digest, not confirmed"


def _as_published(row: Sequence[Any], version: dict[str, Any]) -> list[Any]:
    """The export row as the published version has it: its year (not the preprint's
    date), its DOI where it has one, its kind of entry."""
    out = list(row)
    if version.get("year"):
        out[6], out[7], out[13] = None, version["year"], 0  # published, year, inferred
    out[9] = version.get("doi") or out[9]
    out[11] = version["entry_type"]
    return out


def venue_lines(version: dict[str, Any], *, ascii: bool) -> list[str]:
    """``booktitle`` (proceedings) or ``journal``, ``volume`` and ``pages`` (a range with
    BibTeX's en dash), each escaped as text."""
    where = "booktitle" if version["entry_type"] == "inproceedings" else "journal"
    lines = [f"\t{where} = {{" + escape(version["venue"], ascii=ascii) + "},"]
    if version.get("volume"):
        lines.append("\tvolume = {" + escape(str(version["volume"]), ascii=ascii) + "},")
    if version.get("pages"):
        pages = re.sub(r"(?<=\d)\s*[-\u2013]+\s*(?=\d)", "--", str(version["pages"]))
        lines.append("\tpages = {" + escape(pages, ascii=ascii) + "},")
    return lines


def arxiv_printed(style: str, bib_type: str | None, extra: dict[str, str]) -> bool:
    """Whether a preprint's arXiv id also goes into ``howpublished``, which every BibTeX
    style prints (plain, alpha and unsrt print neither ``eprint`` nor ``url``);
    biblatex prints ``eprint`` itself."""
    return (style == "bibtex" and (not bib_type or bib_type in PREPRINT_TYPES)
            and "howpublished" not in extra)


def from_hub(sources: str | None, name: str) -> bool:
    return parse_sources(sources).get(name, {}).get("source") == "hf"


# Fields paper_entry writes from columns; extras under these names are not repeated.
_WRITTEN = frozenset("author key title date year month eprint archiveprefix primaryclass doi "
                     "url abstract keywords note".split())

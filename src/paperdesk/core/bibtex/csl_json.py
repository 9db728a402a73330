"""CSL-JSON: the citation data pandoc, Quarto and Zotero read.

One item per paper: ``id`` is the citation key, ``author`` names split into
``family``/``given`` (an organisation as ``literal``), ``issued`` as date
parts (``circa`` when the year was inferred), ``URL``, ``DOI``, and an arXiv
id as ``number`` with ``archive`` (and, unless known, ``publisher``) "arXiv".
Preprints are of type ``article`` (CSL's type for preprints); entries that came
from a .bib file keep a type and container fields that fit theirs. Nothing is
invented: what is not known is left out. No text holds a control character but
tab and newline, nor an invisible format character (``text.printable``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from paperdesk.core.bibtex.export_report import ExportReport, checked_row
from paperdesk.core.bibtex.latex_read import decode
from paperdesk.core.model.text import one_line, printable

# .bib entry types and the CSL types that fit them; anything else is an article.
_TYPES = {
    "article": "article-journal", "inproceedings": "paper-conference",
    "conference": "paper-conference", "proceedings": "book", "book": "book",
    "inbook": "chapter", "incollection": "chapter", "phdthesis": "thesis",
    "mastersthesis": "thesis", "thesis": "thesis", "techreport": "report", "report": "report",
    "manual": "report", "unpublished": "manuscript", "dataset": "dataset",
    "software": "software",
}
# Raw .bib fields kept in bib_fields, and the CSL variables they fill.
_EXTRA = {"journal": "container-title", "journaltitle": "container-title",
          "booktitle": "container-title", "volume": "volume", "number": "issue",
          "pages": "page", "publisher": "publisher", "address": "publisher-place",
          "school": "publisher", "institution": "publisher", "edition": "edition",
          "isbn": "ISBN", "issn": "ISSN"}
_PARTICLES = frozenset("van von der den de del della di da du la le dos das ten ter".split())
_DATE = re.compile(r"^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?")


def name(author: str) -> dict[str, str]:
    """A name as CSL wants it: "Last, First" and "First Last" both split; particles
    ("van der") go with the family name; one word or a braced group is ``literal``."""
    author = " ".join(author.split())
    if author.startswith("{") and author.endswith("}"):
        return {"literal": author[1:-1].strip()}
    if "," in author:
        family, given = (part.strip() for part in author.split(",", 1))
        return {"family": family, "given": given} if given else {"literal": family}
    words = author.split(" ")
    if len(words) == 1:
        return {"literal": author}
    first = len(words) - 1
    while first > 1 and words[first - 1].lower() in _PARTICLES:
        first -= 1
    return {"family": " ".join(words[first:]), "given": " ".join(words[:first])}


def _raw_value(raw: str) -> str:
    raw = raw.strip()
    if len(raw) >= 2 and raw[0] + raw[-1] in ("{}", '""'):
        raw = raw[1:-1]
    return " ".join(printable(decode(raw)).split())


def item(row: Sequence[Any], tags: list[str], notes: list[str],
         report: ExportReport | None = None) -> dict[str, Any]:
    """A CSL-JSON item for one row of ``export_query.COLUMNS``; an arXiv id, DOI or
    URL that does not match its grammar is left out (and named in ``report``), as in
    BibTeX."""
    row = checked_row(row, report)
    (pid, key, title, abstract, authors, organization, published, year, arxiv_id, doi, url,
     bib_type, bib_fields, year_inferred) = row[:14]
    out: dict[str, Any] = {"id": key or f"paper{pid}",
                           "type": _TYPES.get((bib_type or "").lower(), "article"),
                           "title": printable(title)}
    names = json.loads(authors) if authors else []
    if names:
        out["author"] = [name(printable(n)) for n in names]
    elif organization:
        out["author"] = [{"literal": one_line(organization)}]
    found = _DATE.match(published or "")
    parts = [int(p) for p in found.groups() if p] if found else []
    if not parts and year:
        parts = [int(year)]
    if parts:
        out["issued"] = {"date-parts": [parts]}
        if year_inferred:
            out["issued"]["circa"] = True
    extra: dict[str, str] = json.loads(bib_fields) if bib_fields else {}
    for field_name, variable in _EXTRA.items():
        if field_name in extra and variable not in out and (
                value := _raw_value(extra[field_name])):
            out[variable] = value.replace("--", "-") if variable == "page" else value
    version = json.loads(row[17]) if len(row) > 17 and row[17] else None
    if version:  # the published version the user accepted: the venue, its year
        out["type"] = ("paper-conference" if version["entry_type"] == "inproceedings"
                       else "article-journal")
        out["container-title"] = one_line(version["venue"])
        if version.get("year"):
            out["issued"] = {"date-parts": [[int(version["year"])]]}
        for variable, value in (("volume", version.get("volume")),
                                ("page", version.get("pages"))):
            if value:
                out[variable] = one_line(str(value))
        doi = version.get("doi") or doi
    if arxiv_id:
        out["number"] = arxiv_id
        out["archive"] = "arXiv"
        if not version:
            out.setdefault("publisher", "arXiv")  # the repository, as Zotero writes preprints
    if doi:
        out["DOI"] = doi
    if url or arxiv_id:
        out["URL"] = url or f"https://arxiv.org/abs/{arxiv_id}"
    if abstract:
        out["abstract"] = printable(abstract)
    if tags:
        out["keyword"] = printable(", ".join(tags))
    if notes:
        out["note"] = printable("\n\n".join(notes))
    return out


def item_text(row: Sequence[Any], tags: list[str], notes: list[str], *, ascii: bool,
              report: ExportReport | None = None) -> str:
    """The item as JSON, indented to sit inside the file's array."""
    return "  " + json.dumps(item(row, tags, notes, report), ensure_ascii=ascii,
                             indent=2).replace("\n", "\n  ")

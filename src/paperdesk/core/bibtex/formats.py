"""The formats PaperDesk writes, in the order the choosers offer them: an explicit list,
as ``core/importing/importers.py`` is for the importers.

Every chooser reads it: the CLI's ``export --format`` and ``--style`` and
``sync add --style``, the export and kept-in-sync dialogs (label, options, suffix,
window title), the exports (``core/bibtex/bibtex_export.py``: which writer, whether
``@preamble``/``@string`` blocks go first), the kept-in-sync files
(``core/sync/sync_write.py``) and the check made before a file is replaced
(``export_file.foreign``: what a file of the format begins with).

A new format is a writer (one export row -> the entry's text, as ``paper_entry``
and ``csl_json.item_text``), an entry here, and tests: ``tests/cli/test_cli_formats.py``
finds each entry offered by the commands and sends it through ``export -o`` (it needs
a way to read back a new kind of file), ``tests/gui/test_export_dialog.py`` finds it in
the dialog, which follows it. One that can be kept in sync also needs a migration,
since the ``syncs`` table names its styles in a CHECK (``core/db/migrations.py``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperdesk.core.model.errors import BibtexError

if TYPE_CHECKING:
    from paperdesk.core.bibtex.export_report import ExportReport

# The options an export can be given, named as ``lib.bibtex.export_to`` takes them; a
# format takes each or not (a chooser offers only those its format takes).
ASCII, NOTES, AS_WRITTEN = "ascii", "notes", "as_written"

Writer = Callable[..., str]  # (row, tags, notes, *, ascii, as_written, report, ids) -> text


@dataclass(frozen=True)
class Format:
    name: str  # as the CLI, the syncs table and ``style=`` name it
    label: str  # in the choosers
    kind: str  # what its file is called, in titles and messages ("Export BibTeX")
    suffixes: tuple[str, ...]  # the file name's; the first is given to a new file
    starts: str  # what its file begins with, past a BOM, blank lines and % comments
    layout: tuple[str, str, str, str]  # head, separator, tail; the file with no entry
    writer: Callable[[], Writer]  # gives the writer, loading it (the list loads none)
    options: frozenset[str]  # which of ASCII, NOTES, AS_WRITTEN it takes
    ascii_means: str  # what ASCII does to the other characters, for the choosers
    notes_in: str  # the field NOTES puts the user's notes in
    header: bool = False  # the .bib files' @preamble and @string blocks go first
    aliases: bool = False  # each entry names the keys it is also known by (``ids``)
    family: str | None = None  # a BibTeX dialect: chosen with ``--style`` as well
    syncable: bool = True  # can be kept in sync (``lib.syncs``)

    @property
    def suffix(self) -> str:
        return self.suffixes[0]

    def misnamed(self, path: str | os.PathLike[str]) -> str | None:
        """Why a file called ``path`` should not hold this format: its suffix is another
        format's (CSL-JSON into ``all.bib``, BibTeX into ``refs.json``), which LaTeX,
        pandoc and PaperDesk itself would read as that format; None when it is not."""
        suffix = Path(path).suffix.lower()
        if suffix in self.suffixes:
            return None
        other = next((f for f in FORMATS if suffix in f.suffixes), None)
        if other is None:
            return None
        return (f"{Path(path).name} is named as a {other.kind} file ({suffix}), but this "
                f"is a {self.kind} export (its files end in {either(self.suffixes)})")


def _bib_writer(style: str) -> Callable[[], Writer]:
    def writer() -> Writer:
        from paperdesk.core.bibtex.bibtex_entry import paper_entry

        def write(row: Sequence[Any], tags: list[str], notes: list[str], *, ascii: bool,
                  as_written: bool = False, report: ExportReport | None = None,
                  ids: str | None = None) -> str:
            return paper_entry(row, tags, notes, style=style, ascii=ascii,
                               as_written=as_written, report=report, ids=ids)

        return write

    return writer


def _csl_writer() -> Writer:
    from paperdesk.core.bibtex.csl_json import item_text

    def write(row: Sequence[Any], tags: list[str], notes: list[str], *, ascii: bool,
              as_written: bool = False, report: ExportReport | None = None,
              ids: str | None = None) -> str:
        return item_text(row, tags, notes, ascii=ascii, report=report)

    return write


_BIB_LAYOUT = ("", "\n\n", "", "")  # entries apart by a blank line, as bibtexparser writes
_LATEX = "accents as LaTeX commands, for old BibTeX"

FORMATS: tuple[Format, ...] = (
    Format(name="bibtex", label="BibTeX (@misc with eprint)", kind="BibTeX",
           suffixes=(".bib",), starts="@", layout=_BIB_LAYOUT, writer=_bib_writer("bibtex"),
           options=frozenset({ASCII, NOTES, AS_WRITTEN}), ascii_means=_LATEX, notes_in="annote",
           header=True, family="bibtex"),
    Format(name="biblatex", label="biblatex (@online)", kind="BibTeX",
           suffixes=(".bib",), starts="@", layout=_BIB_LAYOUT, writer=_bib_writer("biblatex"),
           options=frozenset({ASCII, NOTES, AS_WRITTEN}), ascii_means=_LATEX, notes_in="annote",
           header=True, aliases=True, family="bibtex"),
    Format(name="csl-json", label="CSL-JSON (pandoc, Quarto, Zotero)", kind="CSL-JSON",
           suffixes=(".json",), starts="[", layout=("[\n", ",\n", "\n]\n", "[]\n"),
           writer=_csl_writer, options=frozenset({ASCII, NOTES}),
           ascii_means="other characters as \\u escapes", notes_in="note"),
)

NAMES = tuple(f.name for f in FORMATS)
SYNC_STYLES = tuple(f.name for f in FORMATS if f.syncable)

_BY_NAME = {f.name: f for f in FORMATS}


def either(names: Sequence[str]) -> str:
    """"a, b or c"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def get(name: str) -> Format:
    """The format called ``name``; BibtexError naming the formats there are if none is."""
    found = _BY_NAME.get(name)
    if found is None:
        raise BibtexError(f"unknown style {name!r}: use {either(NAMES)}")
    return found

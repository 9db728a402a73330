"""A .bib file's entries read into BibPapers one at a time (pure, no database).

``core/bibtex/bib_scan.py`` finds the blocks; this resolves the file's ``@string``
definitions in file order (an entry under a definition a later one replaces is
read with it: ``core/bibtex/bib_macros.py``) and reads each entry's
fields (``core/bibtex/bibtex_fields.py``). Only one entry is held at a time; the
reader counts what it skipped and why.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from paperdesk.core.bibtex.bib_macros import as_read_there, early_text, macro_order
from paperdesk.core.bibtex.bib_scan import Failure, RawEntry, iter_entries, loosen, scan
from paperdesk.core.bibtex.bibtex_fields import (
    BibPaper,
    ExpansionError,
    TooLong,
    read_entry,
    resolve,
    undefined_macros,
    undefined_text,
    value_reader,
)
from paperdesk.core.bibtex.tex_safe import definition_warnings


@dataclass
class Parsed:
    papers: list[BibPaper]
    warnings: list[str]
    failed: int
    skipped: list[dict[str, Any]] = field(default_factory=list)
    preambles: list[str] = field(default_factory=list)
    strings: list[tuple[str, str, str]] = field(default_factory=list)  # name, value, @word


class BibReader:
    """The entries of one file's text, in file order, with what could not be read."""

    def __init__(self, text: str, name: str) -> None:
        self.text, self.name = loosen(text), name  # BibTeX's loosest block starts too
        self.found = scan(self.text)
        self.entry_warnings: list[str] = definition_warnings(  # then the entries'
            name, self.found.preambles, self.found.strings)
        self.strings = self._macros()
        self.read_value = value_reader(self.strings)
        self.failures: list[Failure] = list(self.found.failures)
        self.late: list[Failure] = []  # entries whose fields could not be read
        self.read = 0

    def _macros(self) -> dict[str, str]:
        """The @string macros resolved, by lower-case name; one too long to expand (or
        using one) stands as ``TooLong``: the entries using it are skipped, and said so."""
        strings: dict[str, str] = {}
        definitions: list[tuple[int, str, str]] = []
        for (key, value, _word), seg in zip(self.found.strings, self.found.string_at,
                                            strict=True):
            if undefined := undefined_macros(value, strings):
                self.entry_warnings.append(f"{self.name}: @string {key!r} "
                                           + undefined_text(undefined))
            try:
                strings[key.lower()] = resolve(value, strings)[0]
            except ExpansionError as exc:
                strings[key.lower()] = TooLong(exc.macro or key)
                if exc.macro is None:
                    self.entry_warnings.append(
                        f"{self.name}: " + exc.why(f"@string {key!r}") + "; the entries "
                        "using it are skipped")
            definitions.append((seg, key.lower(), strings[key.lower()]))
        self.found.order = macro_order(definitions, strings, len(self.found.segments))
        return strings

    @property
    def expected(self) -> int:
        """About how many entries the file holds (before any is read)."""
        return self.found.candidates

    def papers(self) -> Iterator[BibPaper]:
        order = self.found.order
        for index, item in iter_entries(self.text, self.found):
            if isinstance(item, Failure):
                self.failures.append(item)
                continue
            if order is not None and index < order.last:
                item, early = as_read_there(item, index, order, self.strings)
                if early:
                    self.entry_warnings.append(early_text(self.name, item, early))
            paper = self._paper(item)
            if paper is not None:
                self.read += 1
                yield paper

    def _paper(self, item: RawEntry) -> BibPaper | None:
        paper, failure, warnings = read_item(item, self.strings, self.name, self.read_value)
        if failure is not None:
            self.late.append(failure)
        self.entry_warnings.extend(warnings)
        return paper

    @property
    def failed(self) -> int:
        return len(self.failures) + len(self.late)

    @property
    def skipped(self) -> list[dict[str, Any]]:
        return [{"line": f.line, "key": f.key, "reason": f.reason}
                for f in self.failures + self.late]

    @property
    def warnings(self) -> list[str]:
        """Blocks skipped (in file order), then what the entries' fields said."""
        return [f"{self.name}: line {f.line}: skipped {f.what} that {f.reason}"
                for f in self.failures] + [
            f"{self.name}: line {line}: @string {name!r} defines a macro name again "
            "(names ignore case); the entries above it keep the earlier text, as BibTeX "
            "and biber read them, and are exported with that text in full"
            for line, name in self.found.redefined] + self.entry_warnings


def read_item(item: RawEntry, strings: dict[str, str], name: str,
              read_value: Callable[[str], tuple[str, str]] | None = None,
              ) -> tuple[BibPaper | None, Failure | None, list[str]]:
    """One scanned entry read into a paper, or why it was skipped; its warnings, each
    with the file's name and the entry's line (here, or in a reading process)."""
    try:
        paper = read_entry(item.entry_type, item.key, item.line, item.fields, strings,
                           raw_type=item.raw_type, read_value=read_value)
    except RecursionError:  # LaTeX commands nested thousands deep
        reason = "its LaTeX is nested too deeply to read"
    except ExpansionError as exc:  # @string macros that double and double again
        reason = exc.why("a field")
    else:
        reason = ""
    if reason:
        return None, Failure(item.line, item.key, reason), [
            f"{name}: line {item.line}: skipped entry {item.key[:40]!r}: {reason}"]
    damage = [f"entry {item.key[:40]!r} is damaged ({item.damage}); read as BibTeX reads "
              "it: its fields up to the damage"] if item.damage else []
    damage += [f"entry {item.key[:40]!r}: {item.note}"] if item.note else []
    return paper, None, [f"{name}: line {item.line}: {w}" for w in damage + paper.warnings]


def parse_file(text: str, name: str) -> Parsed:
    """Every readable entry (titled or not), with the file's definitions, all at once."""
    reader = BibReader(text, name)
    papers = list(reader.papers())
    return Parsed(papers, reader.warnings, reader.failed, reader.skipped,
                  reader.found.preambles, reader.found.strings)

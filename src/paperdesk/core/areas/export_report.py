"""What an export changed on its way out, for its report.

- ``repaired``: fields of .bib entries written with their bare specials escaped
  (``bib_repair.repair``: a bare ``#``, ``&``, ``_`` or ``^`` that LaTeX rejects
  wherever a style prints the field); none with ``as_written``, which writes every
  field exactly as the .bib file did.
- ``left_out``: identifiers (arXiv id, DOI, URL) of the library that do not match
  their grammar (``core/model/identifiers.py``: a library written before the check,
  or by hand), left out of the entry rather than written.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from paperdesk.core.model import identifiers
from paperdesk.core.model.bib_repair import repair

_IDS = ((8, "arxiv_id"), (9, "doi"), (10, "url"))  # their places in an export row
_SHOWN = 20  # fields named in the report's lines; the rest are counted


@dataclass
class ExportReport:
    repaired: int = 0
    repaired_fields: list[str] = field(default_factory=list)  # "key.field", the first few
    left_out: list[str] = field(default_factory=list)  # "key: why"

    def lines(self) -> list[str]:
        out = []
        if self.repaired:
            more = self.repaired - len(self.repaired_fields)
            out.append(f"{self.repaired} field{'s' * (self.repaired != 1)} of .bib entries "
                       "written with bare # & _ ^ escaped (--as-written keeps them as "
                       f"written): {', '.join(self.repaired_fields)}"
                       + (f" and {more} more" if more > 0 else ""))
        out += [f"left out: {line}" for line in self.left_out]
        return out

    def to_json(self) -> dict[str, Any]:
        return {"repaired": self.repaired, "repaired_fields": self.repaired_fields,
                "left_out": self.left_out}


def checked_row(row: Sequence[Any], report: ExportReport | None) -> Sequence[Any]:
    """The export row with each identifier that does not match its grammar set to None
    (and named in ``report``)."""
    bad = [(i, kind) for i, kind in _IDS if row[i] and not identifiers.valid(kind, row[i])]
    if not bad:
        return row
    out = list(row)
    for i, kind in bad:
        if report is not None:
            report.left_out.append(f"{row[1] or f'paper{row[0]}'}: "
                                   f"{identifiers.problem(kind, row[i])}")
        out[i] = None
    return out


def field_writer(key: str, as_written: bool,
                 report: ExportReport | None) -> Callable[[str, str], str]:
    """How the fields of one .bib entry are written: ``repair``ed (and counted in
    ``report``), or exactly as written."""
    if as_written:
        return lambda name, raw: raw

    def write(name: str, raw: str) -> str:
        value = repair(name, raw)
        if report is not None and value is not raw and value != raw:
            report.repaired += 1
            if len(report.repaired_fields) < _SHOWN:
                report.repaired_fields.append(f"{key}.{name}")
        return value

    return write

"""Citing from the clipboard: ``\\cite{a,b}``, pandoc's ``[@a; @b]``, and formatted
references (IEEE, through citeproc-py and the CSL style shipped in
``paperdesk.resources/csl``; citeproc-py is imported only when a reference is
formatted)."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Sequence
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from paperdesk.core.library import Library

STYLE_NAME = "IEEE"
_STYLE_FILE = "ieee.csl"
_NUMBER = re.compile(r"^(\[\d+\])(?=\S)")


def keys(lib: Library, ids: Sequence[int]) -> list[str]:
    by_id = {p["id"]: p["citekey"] for p in lib.papers(list(ids))}
    return [by_id[i] for i in ids if by_id.get(i)]


def latex_cite(citekeys: Sequence[str]) -> str:
    return f"\\cite{{{','.join(citekeys)}}}" if citekeys else ""


def pandoc_cite(citekeys: Sequence[str]) -> str:
    """Pandoc's citation syntax; keys with characters pandoc ends a key on get braces."""
    def one(key: str) -> str:
        return f"@{key}" if key[-1:].isalnum() else f"@{{{key}}}"

    return f"[{'; '.join(one(k) for k in citekeys)}]" if citekeys else ""


def csl_items(lib: Library, ids: Sequence[int]) -> list[dict[str, Any]]:
    return json.loads(lib.bibtex.export(list(ids), style="csl-json"))


@functools.cache
def _style() -> Any:
    from citeproc import CitationStylesStyle

    path = resources.files("paperdesk.resources").joinpath("csl", _STYLE_FILE)
    with resources.as_file(path) as file:
        return CitationStylesStyle(str(file), validate=False)


def references(lib: Library, ids: Sequence[int], *, html: bool = False) -> list[str]:
    """The papers as formatted references, in the style's order (plain text or HTML)."""
    items = csl_items(lib, ids)
    if not items:
        return []
    from citeproc import Citation, CitationItem, CitationStylesBibliography, formatter
    from citeproc.source.json import CiteProcJSON

    bibliography = CitationStylesBibliography(
        _style(), CiteProcJSON(items), formatter.html if html else formatter.plain)
    for entry in items:
        bibliography.register(Citation([CitationItem(entry["id"])]))
    # The plain formatter runs the number into the text ("[1]A. Author"): space it.
    return [_NUMBER.sub(r"\1 ", str(text), count=1) for text in bibliography.bibliography()]


class Citations:
    """``lib.citations``: citation keys, ``\\cite`` and pandoc citations, references."""

    style_name = STYLE_NAME

    def __init__(self, lib: Library) -> None:
        self.lib = lib

    def keys(self, ids: Sequence[int]) -> list[str]:
        return keys(self.lib, ids)

    latex_cite = staticmethod(latex_cite)
    pandoc_cite = staticmethod(pandoc_cite)

    def references(self, ids: Sequence[int], *, html: bool = False) -> list[str]:
        return references(self.lib, ids, html=html)

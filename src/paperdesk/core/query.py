"""The search query language, compiled to SQL.

This first version understands free words and "quoted phrases", matched with
FTS5 over title, abstract, notes and tags. ``compile_query`` returns a WHERE
clause over ``papers p`` with its parameters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from paperdesk.core.errors import QueryError

_TOKEN = re.compile(r'"([^"]*)"|(\S+)')


@dataclass
class Compiled:
    where: str = "1"
    params: list[object] = field(default_factory=list)
    # An FTS5 expression whose bm25 rank can order the results, if any.
    fts: str | None = None


def _fts_phrase(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def compile_query(text: str) -> Compiled:
    if text.count('"') % 2:
        raise QueryError(f"unbalanced quote in query: {text!r}")
    phrases = [m[1] or m[2] for m in _TOKEN.finditer(text)]
    phrases = [p for p in phrases if p.strip()]
    if not phrases:
        return Compiled()
    fts = " ".join(_fts_phrase(p) for p in phrases)
    return Compiled("p.id IN (SELECT rowid FROM papers_fts WHERE papers_fts MATCH ?)", [fts], fts)

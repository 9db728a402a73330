"""Hints for a query that went wrong: "did you mean ...?" for values that name nothing.

``hint(lib, query)`` looks at the field values of a query (``status:``,
``tag:``, ``has:``, ``is:``, ``digest:``, ``org:``) and, for each value that
matches nothing in the library, suggests the closest known one. It is read
only and cheap: it reads tag and digest names, never the papers.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from typing import TYPE_CHECKING

from paperdesk.core.db.schema import STATUSES
from paperdesk.core.model.errors import QueryError
from paperdesk.core.search.query import _HAS, _IS, _IS_ALIASES, _STATUS_ALIASES
from paperdesk.core.search.query_parse import (
    VALUE_FIELDS,
    WORD_COLUMNS,
    Field,
    Group,
    Node,
    Not,
    parse,
)

if TYPE_CHECKING:
    from paperdesk.core.library import Library

FIELDS = VALUE_FIELDS + tuple(WORD_COLUMNS)


def _fields(node: Node | None) -> Iterator[Field]:
    if isinstance(node, Field):
        yield node
    elif isinstance(node, Not):
        yield from _fields(node.child)
    elif isinstance(node, Group):
        for child in node.children:
            yield from _fields(child)


def _closest(value: str, choices: list[str]) -> str | None:
    folded = {c.casefold(): c for c in choices}
    want = value.casefold().replace("_", "-").replace(" ", "-")
    squeezed = {c.replace("-", "").replace(" ", ""): c for c in folded}
    if want.replace("-", "") in squeezed:
        return folded[squeezed[want.replace("-", "")]]
    found = difflib.get_close_matches(value.casefold(), list(folded), n=1, cutoff=0.6)
    return folded[found[0]] if found else None


def _unknown_field(query: str) -> str | None:
    """For an unknown field name ("stauts:read"), the field meant."""
    for word in query.split():
        name, colon, _rest = word.lstrip("-(").partition(":")
        if colon and name and name.lower() not in FIELDS:
            best = _closest(name, list(FIELDS))
            if best:
                return f"{name}: is not a field; did you mean {best}:?"
    return None


def _value_hint(lib: Library, f: Field) -> str | None:
    value = f.value
    if f.name == "status":
        if _STATUS_ALIASES.get(value.lower(), value.lower()) in STATUSES:
            return None
        best = _closest(value, list(STATUSES))
        return f"no status “{value}”" + (f"; did you mean {best}?" if best else
                                          f"; statuses are {', '.join(STATUSES)}")
    if f.name in ("has", "is"):
        known = list(_HAS) if f.name == "has" else [*_IS, *_IS_ALIASES]
        if value.lower() in known:
            return None
        best = _closest(value, known)
        return f"no {f.name}:{value}" + (f"; did you mean {f.name}:{best}?" if best else "")
    if f.name == "tag":
        names = [r[0] for r in lib.db.execute("SELECT name FROM tags")]
        if f.prefix and any(n.casefold().startswith(value.casefold()) for n in names):
            return None
        if any(n.casefold() == value.casefold() for n in names):
            return None
        best = _closest(value, names)
        return f"no tag “{value}”" + (f"; did you mean tag:{_quote(best)}?" if best else "")
    if f.name in ("digest", "org"):
        column, table = ("name", "digests") if f.name == "digest" else ("organization", "papers")
        names = [r[0] for r in lib.db.execute(
            f"SELECT DISTINCT {column} FROM {table} WHERE {column} IS NOT NULL LIMIT 5000")]
        if any(value.casefold() in (n or "").casefold() for n in names):
            return None
        best = _closest(value, names)
        return f"no {f.name} like “{value}”" + (
            f"; did you mean {f.name}:{_quote(best)}?" if best else "")
    return None


def _quote(value: str) -> str:
    return f'"{value}"' if any(c.isspace() for c in value) else value


def hint(lib: Library, query: str) -> str | None:
    """Why ``query`` may have found nothing, with the value probably meant; or None."""
    try:
        tree = parse(query)
    except QueryError:
        return _unknown_field(query)
    for f in _fields(tree):
        if f.name in VALUE_FIELDS and (found := _value_hint(lib, f)):
            return found
    return None


def empty_message(lib: Library, query: str, source_label: str) -> str:
    """What an empty table says: nothing here, and a hint when one helps."""
    if not query.strip():
        return f"No papers in “{source_label}” yet."
    text = f"No papers match “{query.strip()}” in “{source_label}”."
    if found := hint(lib, query):
        text += f"\n{found[0].upper()}{found[1:]}"
    return text

"""Writing results: data to stdout, messages to stderr."""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")


def emit_json(data: Any) -> None:
    """``json.dump(data, ensure_ascii=False, indent=2)`` and a newline, byte for byte."""
    sys.stdout.write(_dumps(data) + "\n")


def emit_json_list(items: Iterable[Any]) -> None:
    """A JSON array written item by item, byte for byte what ``emit_json`` writes
    for the whole list, so that a list of every paper never sits in memory."""
    out = sys.stdout
    first = True
    for item in items:
        out.write(("[\n  " if first else ",\n  ") + _dumps(item).replace("\n", "\n  "))
        first = False
    out.write("[]\n" if first else "\n]\n")


def _dumps(value: Any) -> str:
    """``json.dumps(value, ensure_ascii=False, indent=2)``, written by orjson, several
    times faster (json's own indenting encoder is pure Python: two thirds of
    ``list --json``'s time). orjson writes JSON's own types as json does, but for
    floats, which go to it as the text json writes (``_prepared``). What it refuses (an
    integer beyond 64 bits, a key that is not text, a lone surrogate) and every other
    type go to json itself, which writes them, or refuses them, as before."""
    import orjson

    try:
        return orjson.dumps(_prepared(value, orjson.Fragment), option=orjson.OPT_INDENT_2
                            ).decode()
    except (_NotPlain, orjson.JSONEncodeError):
        return json.dumps(value, ensure_ascii=False, indent=2)


class _NotPlain(Exception):
    """A value of a type other than JSON's own."""


_PLAIN = {str, int, bool, type(None)}


def _prepared(value: Any, fragment: Any) -> Any:
    """``value`` with each float as the text json writes for it (``repr``, ``NaN``,
    ``Infinity``); the containers that hold none are passed as they are."""
    kind = type(value)
    if kind is float:
        return fragment(_float_text(value))
    if kind is dict or kind is list or kind is tuple:
        changed = None
        for at, item in (value.items() if kind is dict else enumerate(value)):
            if type(item) in _PLAIN:
                continue
            new = _prepared(item, fragment)
            if new is not item:
                if changed is None:
                    changed = dict(value) if kind is dict else list(value)
                changed[at] = new
        return value if changed is None else changed
    if kind in _PLAIN:
        return value
    raise _NotPlain


def _float_text(value: float) -> str:
    if value != value:
        return "NaN"
    if value in (math.inf, -math.inf):
        return "Infinity" if value > 0 else "-Infinity"
    return float.__repr__(value)


# Control characters (C0, DEL, C1) and the Unicode line and paragraph separators.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def escaped(text: str, keep: str = "") -> str:
    """``text`` with its control characters written as ``\\n``, ``\\x1b``..., as repr
    writes them (but those in ``keep``): a file name holding a newline cannot forge a
    line of a report, nor an escape sequence drive the terminal."""
    return _CONTROL.sub(lambda m: m.group() if m.group() in keep else repr(m.group())[1:-1],
                        text)


def say(message: str) -> None:
    """A message for the person at the terminal (stderr, so stdout stays data); its
    control characters are escaped, but for the newlines it was written with."""
    print(escaped(message, keep="\n"), file=sys.stderr)


def listing(items: Sequence[T], line: Callable[[T], str], *, as_json: bool,
            json_item: Callable[[T], Any] | None = None, total: str | None = None,
            empty: str | None = None) -> int:
    """What a command that lists things writes, and its exit status (0): with --json
    (``as_json``) the items as a JSON array (each as ``json_item`` gives it); else a
    line each on stdout (``line``), then ``total`` on stderr, or ``empty`` there
    instead when there are none."""
    if as_json:
        emit_json([json_item(i) for i in items] if json_item is not None else list(items))
        return 0
    if not items and empty is not None:
        say(empty)
        return 0
    for item in items:
        print(line(item))
    if total is not None:
        say(total)
    return 0


def fail(message: str) -> None:
    """A one-line error: every control character escaped, newlines too."""
    print(f"paperdesk: {escaped(message)}", file=sys.stderr)


def short(text: str | None, width: int) -> str:
    text = text or ""
    return text if len(text) <= width else text[: width - 1] + "…"

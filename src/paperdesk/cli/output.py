"""Writing results: data to stdout, messages to stderr."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable
from typing import Any


def emit_json(data: Any) -> None:
    """``json.dump(data, ensure_ascii=False, indent=2)`` and a newline, byte for byte,
    written by ``_indented`` (json's indenting encoder is pure Python)."""
    sys.stdout.write(_indented(data, "") + "\n")


def emit_json_list(items: Iterable[Any]) -> None:
    """A JSON array written item by item, byte for byte what ``emit_json`` writes
    for the whole list, so that a list of every paper never sits in memory."""
    out = sys.stdout
    first = True
    for item in items:
        out.write(("[\n  " if first else ",\n  ") + _indented(item, "  "))
        first = False
    out.write("[]\n" if first else "\n]\n")


# What ``ensure_ascii=False`` writes a string as: the public encoder, which hands a
# plain string straight to json's C string escaper.
_STRING = json.JSONEncoder(ensure_ascii=False).encode
_CONTAINERS = (dict, list, tuple)


def _refuse(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


# json's encoder writing a list of values with a bare newline between them (public
# API: without indentation ``encode`` uses json's C encoder). It never writes a
# newline inside a value (strings escape theirs), so splitting its text on newlines
# gives each value exactly as ``json.dumps`` writes it.
_FLAT_TEXT = json.JSONEncoder(ensure_ascii=False, check_circular=False, default=_refuse,
                              separators=("\n", ": ")).encode
# The same with ``ensure_ascii``, whose C string escaper is the faster by a third:
# where its text holds no ``\\u`` (nothing beyond ASCII, nor DEL, was escaped) it is
# byte for byte what ``ensure_ascii=False`` writes.
_FLAT_ASCII = json.JSONEncoder(check_circular=False, default=_refuse,
                               separators=("\n", ": ")).encode


def _flat(values: list[Any]) -> str:
    text = _FLAT_ASCII(values)
    return text if "\\u" not in text else _FLAT_TEXT(values)


_PREFIXES: dict[tuple[tuple[str, ...], str], tuple[str, ...] | None] = {}
_SEEN: dict[tuple[Any, ...], str] = {}  # the text of a container of strings, by its contents


def _indented(value: Any, indent: str) -> str:
    """``json.dumps(value, ensure_ascii=False, indent=2)`` at ``indent``, many times
    faster: json's own indenting encoder is pure Python, its C encoder only writes
    JSON without indentation. The C encoder writes every plain value of a list or
    dict in one call; only the non-empty lists and dicts inside are visited here."""
    if type(value) is str:
        return _STRING(value)
    if not (value and isinstance(value, _CONTAINERS)):
        return json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n" + indent)
    inner = indent + "  "
    prefixes = None
    if isinstance(value, dict):
        keys = tuple(value)
        prefixes = _PREFIXES.get((keys, inner))
        if prefixes is None:
            if not all(type(k) is str for k in keys):  # json turns other keys into text
                return json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n" + indent)
            if len(_PREFIXES) > 1024:
                _PREFIXES.clear()
            prefixes = _PREFIXES[(keys, inner)] = tuple(f"{inner}{_STRING(k)}: " for k in keys)
        values = list(value.values())
    else:
        values = list(value)
    nested = [(i, v) for i, v in enumerate(values) if v and isinstance(v, _CONTAINERS)]
    if not nested and all(type(v) is str for v in values):
        # Strings only (a paper's digests, one field's source): often met before.
        key = (prefixes or inner, *values)
        text = _SEEN.get(key)
        if text is None:
            if len(_SEEN) > 4096:
                _SEEN.clear()
            text = _SEEN[key] = _laid_out(prefixes, list(map(_STRING, values)), indent)
        return text
    if len(nested) == len(values):  # nothing plain to encode
        parts: list[str] = values
    else:
        for i, _ in nested:
            values[i] = None
        parts = _flat(values)[1:-1].split("\n")
    done: dict[int, str] = {}  # one object met again (a paper's default source) is written once
    for i, v in nested:
        text = done.get(id(v))
        if text is None:
            text = done[id(v)] = _indented(v, inner)
        parts[i] = text
    return _laid_out(prefixes, parts, indent)


def _laid_out(prefixes: tuple[str, ...] | None, parts: list[str], indent: str) -> str:
    if prefixes is None:
        inner = indent + "  "
        return f"[\n{inner}" + f",\n{inner}".join(parts) + f"\n{indent}]"
    return "{\n" + ",\n".join(map(str.__add__, prefixes, parts)) + f"\n{indent}}}"


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


def fail(message: str) -> None:
    """A one-line error: every control character escaped, newlines too."""
    print(f"paperdesk: {escaped(message)}", file=sys.stderr)


def short(text: str | None, width: int) -> str:
    text = text or ""
    return text if len(text) <= width else text[: width - 1] + "…"

"""Writing results: data to stdout, messages to stderr."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import Any


def emit_json(data: Any) -> None:
    json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


def emit_json_list(items: Iterable[Any]) -> None:
    """A JSON array written item by item, byte for byte what ``emit_json`` writes
    for the whole list, so that a list of every paper never sits in memory."""
    out = sys.stdout
    first = True
    for item in items:
        out.write(("[\n  " if first else ",\n  ") + _indented(item, "  "))
        first = False
    out.write("[]\n" if first else "\n]\n")


_STRING = json.encoder.encode_basestring  # what ensure_ascii=False writes a string as


def _indented(value: Any, indent: str) -> str:
    """``json.dumps(value, ensure_ascii=False, indent=2)`` at ``indent``, several times
    faster: json's own indenting encoder is pure Python, its C encoder only writes
    JSON without indentation. Anything but plain data goes to json itself."""
    if isinstance(value, str):
        return _STRING(value)
    if value is None or isinstance(value, bool | int | float):
        return json.dumps(value)
    inner = indent + "  "
    if isinstance(value, dict):
        if not value:
            return "{}"
        if not all(type(k) is str for k in value):
            return json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n" + indent)
        return ("{\n" + ",\n".join(f"{inner}{_STRING(k)}: {_indented(v, inner)}"
                                    for k, v in value.items()) + "\n" + indent + "}")
    if isinstance(value, list | tuple):
        if not value:
            return "[]"
        return "[\n" + ",\n".join(inner + _indented(v, inner) for v in value) + "\n" + indent + "]"
    # json.dumps escapes newlines inside strings: every newline is indentation.
    return json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n" + indent)


def say(message: str) -> None:
    """A message for the person at the terminal (stderr, so stdout stays data)."""
    print(message, file=sys.stderr)


def fail(message: str) -> None:
    print(f"paperdesk: {message}", file=sys.stderr)


def short(text: str | None, width: int) -> str:
    text = text or ""
    return text if len(text) <= width else text[: width - 1] + "…"

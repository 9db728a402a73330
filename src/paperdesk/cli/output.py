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
        # json.dumps escapes newlines inside strings: every newline is indentation.
        text = json.dumps(item, ensure_ascii=False, indent=2).replace("\n", "\n  ")
        out.write(("[\n  " if first else ",\n  ") + text)
        first = False
    out.write("[]\n" if first else "\n]\n")


def say(message: str) -> None:
    """A message for the person at the terminal (stderr, so stdout stays data)."""
    print(message, file=sys.stderr)


def fail(message: str) -> None:
    print(f"paperdesk: {message}", file=sys.stderr)


def short(text: str | None, width: int) -> str:
    text = text or ""
    return text if len(text) <= width else text[: width - 1] + "…"

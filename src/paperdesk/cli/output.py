"""Writing results: data to stdout, messages to stderr."""

from __future__ import annotations

import json
import sys
from typing import Any


def emit_json(data: Any) -> None:
    json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


def say(message: str) -> None:
    """A message for the person at the terminal (stderr, so stdout stays data)."""
    print(message, file=sys.stderr)


def fail(message: str) -> None:
    print(f"paperdesk: {message}", file=sys.stderr)


def short(text: str | None, width: int) -> str:
    text = text or ""
    return text if len(text) <= width else text[: width - 1] + "…"

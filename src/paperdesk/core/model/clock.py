"""The time PaperDesk stamps on what it writes: UTC, to the second, ISO 8601."""

from __future__ import annotations

from datetime import UTC, datetime


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")

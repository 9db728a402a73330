"""The time PaperDesk stamps on what it writes: UTC, to the second, ISO 8601.

``PAPERDESK_CLOCK_OFFSET`` (seconds, may be negative) moves this computer's clock, as
a computer whose clock is wrong would have it: the sharing tests run two libraries a
day or a month apart with it. What the shared document merges never reads the clock
(the engine orders edits by what each computer had seen), so no outcome changes.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta


def now() -> str:
    return (datetime.now(UTC) + offset()).isoformat(timespec="seconds")


def offset() -> timedelta:
    raw = os.environ.get("PAPERDESK_CLOCK_OFFSET")
    try:
        return timedelta(seconds=float(raw)) if raw else timedelta()
    except ValueError:
        return timedelta()

"""Long jobs report progress and honour cancellation without knowing who drives them.

A job takes ``progress(fraction, message)`` and ``cancel`` (anything with
``is_set()``, such as ``threading.Event``). The CLI, the tests and the GUI's
worker all pass their own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from paperdesk.core.errors import Cancelled

Progress = Callable[[float, str], None]


class CancelFlag(Protocol):
    def is_set(self) -> bool: ...


def no_progress(fraction: float, message: str) -> None:
    """The progress callback for callers that do not want one."""


def check_cancel(cancel: CancelFlag | None) -> None:
    """Raise Cancelled if the caller asked to stop."""
    if cancel is not None and cancel.is_set():
        raise Cancelled("cancelled; nothing was changed")

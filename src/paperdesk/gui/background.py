"""The window's operation runner as the review, export and trash views call it.

Kept for those views while they move to the context: each function is the
runner's own (``gui/operations.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from paperdesk.core.db.changes import Changes
from paperdesk.gui.operations import LARGE, Operations

if TYPE_CHECKING:
    from paperdesk.gui.main_window import MainWindow

__all__ = ["LARGE", "edit", "jobs", "record"]


def jobs(window: MainWindow) -> Operations:
    return window.context.ops


def edit(window: MainWindow, fn: Callable[..., Changes], *args: Any) -> Changes | None:
    return window.context.ops.edit(fn, *args)


def record(window: MainWindow, changes: Changes) -> None:
    window.context.ops.record(changes)

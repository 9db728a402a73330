"""The reading queue: the to-read papers in the user's order, moved as a block.

``Library.curation.reading_list()`` reads the order and ``move_in_reading_list``
moves one paper; this module moves several at once (a drag of a selection,
Alt+Up/Alt+Down, move to top/bottom), each move one undoable edit that writes
positions 1..n for the whole queue, so the order is plain to read back.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from paperdesk.core.db import changes as ch
from paperdesk.core.db import papers_table
from paperdesk.core.db.database import Database
from paperdesk.core.model.errors import CurationError
from paperdesk.core.model.text import plural

if TYPE_CHECKING:
    from paperdesk.core.library import Library


@dataclass(frozen=True)
class Moved(ch.Result):
    """Where the moved papers start now (0 = the top)."""

    index: int


def reading_list(db: Database) -> list[int]:
    """The to-read papers (not in the trash), in the user's order."""
    return [r[0] for r in db.execute(
        "SELECT id FROM papers WHERE status = 'to-read' AND deleted_at IS NULL "
        "ORDER BY list_position IS NULL, list_position, id")]


def _queue(lib: Library, ids: Iterable[int]) -> tuple[list[int], list[int]]:
    order = reading_list(lib.db)
    moving = list(dict.fromkeys(int(i) for i in ids))
    on = set(order)
    missing = [pid for pid in moving if pid not in on]
    if missing:
        lib.require(missing)
        title = lib.db.execute("SELECT title FROM papers WHERE id = ?", [missing[0]]).fetchone()[0]
        shown = title if len(title) <= 60 else title[:59] + "…"
        raise CurationError(f"{shown!r} (paper {missing[0]}) is not in the reading queue "
                            "(mark it to-read)")
    wanted = set(moving)
    return order, [pid for pid in order if pid in wanted]  # moved in their queue order


def move_to(lib: Library, ids: Iterable[int], index: int) -> ch.Changes:
    """Put the papers ``ids`` (kept in their queue order) at ``index`` of the queue
    without them (0 = the top; past the end = the bottom)."""
    order, moving = _queue(lib, ids)
    if not moving:
        return ch.NOTHING
    rest = [pid for pid in order if pid not in set(moving)]
    index = max(0, min(int(index), len(rest)))
    new = [*rest[:index], *moving, *rest[index:]]
    if new == order:
        return ch.NOTHING
    label = f"Move {plural(len(moving), 'paper')} in the reading queue"
    with lib.edit(label, [ch.PAPERS], moving) as e:
        papers_table.set_list_positions(lib.db, [(float(n + 1), pid) for n, pid in enumerate(new)])
        e.result = Moved(index)
    return e.changes


def step(lib: Library, ids: Iterable[int], delta: int) -> ch.Changes:
    """Move the papers up (``delta`` < 0) or down by ``delta`` places."""
    order, moving = _queue(lib, ids)
    if not moving:
        return ch.NOTHING
    first = order.index(moving[0])
    return move_to(lib, moving, max(0, first + int(delta)))


def to_top(lib: Library, ids: Iterable[int]) -> ch.Changes:
    return move_to(lib, ids, 0)


def to_bottom(lib: Library, ids: Iterable[int]) -> ch.Changes:
    return move_to(lib, ids, 1 << 30)


def next_up(lib: Library) -> dict | None:
    """The first paper of the queue (id and title), or None."""
    row = lib.db.execute(
        "SELECT id, title FROM papers WHERE status = 'to-read' AND deleted_at IS NULL "
        "ORDER BY list_position IS NULL, list_position, id LIMIT 1").fetchone()
    return {"id": row[0], "title": row[1]} if row else None


class Queue:
    """``lib.queue``: the reading queue moved as a block (each move one undoable edit)."""

    def __init__(self, lib: Library) -> None:
        self.lib = lib

    def move_to(self, ids: Iterable[int], index: int) -> ch.Changes:
        return move_to(self.lib, ids, index)

    def step(self, ids: Iterable[int], delta: int) -> ch.Changes:
        return step(self.lib, ids, delta)

    def to_top(self, ids: Iterable[int]) -> ch.Changes:
        return to_top(self.lib, ids)

    def to_bottom(self, ids: Iterable[int]) -> ch.Changes:
        return to_bottom(self.lib, ids)

    def next_up(self) -> dict | None:
        return next_up(self.lib)

"""File > Today (Ctrl+T): the day starts with one key.

It fetches the Hub's daily papers of the days since the last fetch (and again those
whose page may still grow), completes the new papers from the Hub, and opens triage on
the papers new to this library, the fastest-rising first, followed by the rest of the
backlog, the newest day first (``core/hub/today.py``), on the worker with progress and
Cancel. Triage opens on the newest day's papers as soon as that day is in, and each
older day's join it as they come; the backlog joins when all is fetched. The title
counts the backlog per day. Offline, the status line says so in one line and triage
opens on the backlog as it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from paperdesk.gui.context import Feature
from paperdesk.gui.curation.triage_view import TriageView

if TYPE_CHECKING:
    from paperdesk.core.api import TodayResult
    from paperdesk.gui.context import Context

KEY = "Ctrl+T"


class TodayTriage(TriageView):
    """Triage of a list of papers (Today's), in the order given."""

    def __init__(self, context: Context, ids: list[int], title: str) -> None:
        super().__init__(context, [], title)
        self.setObjectName("today")
        self.ids, self.index = list(ids), 0
        self.show_current()

    def _key(self) -> str:
        return "triage/today"

    def extend(self, ids: list[int]) -> None:
        """More papers to triage, after those already here (their places stay, so an
        undo still goes back to its paper)."""
        here = set(self.ids)
        more = [pid for pid in ids if pid not in here]
        if more:
            self.ids += more
            self.show_current()


class Arrivals(QObject):
    """Each day's new papers, heard on the worker, delivered on the window's thread."""

    papers = Signal(list)


class Today(Feature):
    """File > Today; ``view`` is the last triage it opened, ``result`` what it found."""

    name = "today"

    def install(self, context: Context) -> None:
        super().install(context)
        self.view: TodayTriage | None = None
        self.result: TodayResult | None = None
        self.action = context.menus.add(
            "file", "today", "&Today: fetch, complete and triage the new papers", self.start,
            KEY, before="fetch_daily")
        self.action.setToolTip("Fetch the Hugging Face daily papers since the last fetch, "
                               f"complete them, and triage the new ones ({KEY})")

    def start(self) -> int | None:
        ctx = self.context  # the Hub's client and the importer load when asked
        self.view = None  # this Today's triage opens with its first papers
        arrivals = Arrivals(ctx.widget)
        arrivals.papers.connect(self._arrived)
        self.arrivals = arrivals  # kept until this Today is done
        return ctx.ops.run("Today", lambda lib, progress, cancel: lib.fetch_today(
            progress=progress, cancel=cancel, arrived=arrivals.papers.emit), self._done,
            text="Fetching the daily papers since the last fetch…")

    def _arrived(self, ids: list[int]) -> None:
        if self.view is None:
            self._open(ids, f"Today: {len(ids)} new so far, fetching the rest…")
        else:
            self.view.extend(ids)

    def _done(self, result: TodayResult) -> None:
        self.result = result
        ctx = self.context
        ctx.show_message(result.summary(), 15000)
        if not result.new_ids:
            return
        day = result.last.isoformat()
        count = len(result.new_ids)
        title = (f"Today ({day}): {count} paper{'s' * (count != 1)} to triage"
                 f" ({result.counts()})")
        if self.view is None:
            self._open(result.new_ids, title)
        else:  # opened on the first papers: the rest, and the backlog, join them
            self.view.extend(result.new_ids)
            self.view.setWindowTitle(f"Triage — {title}")

    def _open(self, ids: list[int], title: str) -> None:
        ctx = self.context
        self.view = TodayTriage(ctx, ids, title)
        ctx.features["triage"].view = self.view
        self.view.show()
        self.view.raise_()
        self.view.activateWindow()

"""File > Today (Ctrl+T): the day starts with one key.

It fetches the Hub's daily papers of the days since the last fetch (and again those
whose page may still grow), completes the new papers from the Hub, and opens triage on
the papers new to this library, the fastest-rising first, followed by the rest of the
backlog, the newest day first (``core/hub/today.py``), on the worker with progress and
Cancel. The title counts the backlog per day. Offline, the status line says so in one
line and triage opens on the backlog as it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
        return ctx.ops.run("Today", lambda lib, progress, cancel: lib.fetch_today(
            progress=progress, cancel=cancel), self._done,
            text="Fetching the daily papers since the last fetch…")

    def _done(self, result: TodayResult) -> None:
        self.result = result
        ctx = self.context
        ctx.show_message(result.summary(), 15000)
        if not result.new_ids:
            return
        day = result.last.isoformat()
        count = len(result.new_ids)
        self.view = TodayTriage(ctx, result.new_ids,
                                f"Today ({day}): {count} paper{'s' * (count != 1)} to triage"
                                f" ({result.counts()})")
        ctx.features["triage"].view = self.view
        self.view.show()
        self.view.raise_()
        self.view.activateWindow()

"""Complete from Hugging Face, and File > Fetch daily papers…: the window's network jobs.

Both run on the window's background worker with progress and Cancel, and end
in a report. A completion is one undoable edit (Edit > Undo puts every paper
back); a cancelled one keeps what the Hub had already answered. Nothing here
talks to the network unless the user picks one of these actions.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QDate, QEvent, QTimer
from PySide6.QtWidgets import (
    QDateEdit,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
)

from paperdesk.gui.common import settings
from paperdesk.gui.context import Feature, context_of

if TYPE_CHECKING:
    from paperdesk.core.api import Changes
    from paperdesk.gui.context import Context

SCOPES = ("selection", "list", "all")
AFTER_IMPORT = "hub/complete_after_import"  # off until the user turns it on


class HubReport(QDialog):
    """What a completion or a fetch did: a summary line and the papers left as they were."""

    def __init__(self, title: str, summary: str, lines: list[str], parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.summary = QLabel(summary)
        self.summary.setWordWrap(True)
        self.details = QPlainTextEdit("\n".join(lines) or "Nothing else to report.")
        self.details.setReadOnly(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.details)
        layout.addWidget(buttons)
        self.resize(720, 360)


def enrich_lines(result: Any) -> list[str]:
    """The report's lines, each paper named by its title (never its internal id)."""
    lines = [f"Not found on the Hub: {title}" for _pid, title in result.not_found]
    lines += [f"Left alone: {title}: {why}" for _pid, title, why in result.unsure]
    lines += [f"Failed: {title}: {why}" for _pid, title, why in result.failed]
    return lines


def scope_ids(context: Context, scope: str) -> list[int] | None:
    """The papers a scope means: the selection, the list shown, or None for everything."""
    if scope == "selection":
        return context.selected_ids()
    if scope == "list":
        return context.selection.shown_ids()
    return None


def complete(owner: Any, scope: str, ids: list[int] | None = None) -> int | None:
    """Start completing the papers of ``scope`` (or ``ids``) on the worker; the job id."""
    context = context_of(owner)
    ids = ids if ids is not None else scope_ids(context, scope)
    if ids is not None and not ids:
        context.notify("Select the papers to complete first")
        return None
    hub = context.features["hub"]
    hub.report = None

    def job(lib, progress, cancel) -> Changes:
        return lib.enrich(ids, progress=progress, cancel=cancel)

    def done(changes: Changes) -> None:
        result = changes.result
        context.show_message(result.summary(), 10000)
        hub.show_report(HubReport("Complete from Hugging Face", result.summary(),
                                  enrich_lines(result), context.widget))

    return context.ops.run("Completing from Hugging Face", job, done, undo=True)


class DayEdit(QDateEdit):
    """A date typed part by part: a click in the year, month or day selects that part,
    so typing replaces it (a click left the cursor inside "2026", where every digit
    typed was refused); the calendar pops up from the arrow."""

    def __init__(self, day: QDate) -> None:
        super().__init__(day)
        self.setCalendarPopup(True)
        self.setDisplayFormat("yyyy-MM-dd")
        self.setMaximumDate(QDate.currentDate())
        self.lineEdit().installEventFilter(self)  # the clicks land on the line edit

    def eventFilter(self, watched, event) -> bool:
        if watched is self.lineEdit() and event.type() == QEvent.Type.MouseButtonRelease \
                and not self.lineEdit().hasSelectedText():
            QTimer.singleShot(0, self, lambda: self.setSelectedSection(self.currentSection()))
        return super().eventFilter(watched, event)

    def focusInEvent(self, event) -> None:
        super().focusInEvent(event)
        self.setSelectedSection(self.currentSection())


class FetchDialog(QDialog):
    """From and to dates for File > Fetch daily papers…."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Fetch daily papers")
        today = QDate.currentDate()
        self.first = DayEdit(today.addDays(-1))
        self.last = DayEdit(today.addDays(-1))
        note = QLabel("Imports the Hugging Face daily papers of these days as digests, "
                      "complete with authors and arXiv ids. This asks the Hub over the "
                      "network.")
        note.setWordWrap(True)
        form = QFormLayout()
        form.addRow("From", self.first)
        form.addRow("To", self.last)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Fetch")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(note)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def days(self) -> tuple[dt.date, dt.date]:
        return self.first.date().toPython(), self.last.date().toPython()


def fetch_summary(reports: list) -> str:
    """One line for a fetch: what came in, and why a day failed (the Hub unreachable
    is said as such, never as "0 papers")."""
    failed = [r for r in reports if r.status == "failed"]
    if failed and len(failed) == len(reports):
        return f"Nothing fetched: {failed[0].error or 'the Hub did not answer'}"
    imported = sum(r.papers for r in reports if r.status == "imported")
    new = sum(r.new_papers for r in reports)
    days = len(reports) - len(failed)
    text = (f"Fetched {days} day{'s' * (days != 1)}: {imported} paper"
            f"{'s' * (imported != 1)}, {new} new")
    if failed:
        text += (f"; {len(failed)} day{'s' * (len(failed) != 1)} failed: "
                 f"{failed[0].error or 'the Hub did not answer'}")
    return text


def offer_triage(context: Context, report: QDialog, digest_ids: list[int]) -> None:
    """A "Triage the N new papers" button under a fetch's report: the papers first
    seen in the fetched days, one at a time."""
    from PySide6.QtWidgets import QPushButton

    from paperdesk.gui.curation.triage_view import open_triage

    new = context.lib.triage.digest_papers(digest_ids, only_new=True)
    if not new:
        return
    button = QPushButton(f"Triage the {len(new)} new paper{'s' * (len(new) != 1)}…")
    button.setObjectName("triage-new-button")

    def go() -> None:
        report.accept()
        if (view := open_triage(context, digest_ids)) is not None:
            view.narrow(new)

    button.clicked.connect(go)
    report.layout().insertWidget(1, button)


def fetch(owner: Any, first: dt.date, last: dt.date) -> int | None:
    """Start fetching the daily papers of ``first``..``last`` on the worker."""
    context = context_of(owner)

    def job(lib, progress, cancel) -> list:
        return lib.fetch_daily(first, last, progress=progress, cancel=cancel)

    def done(reports: list) -> None:
        summary = fetch_summary(reports)
        lines = [f"{r.day}: {r.error or r.status}" for r in reports]
        lines += [f"  {w}" for r in reports for w in r.warnings]
        context.show_message(summary, 10000)
        report = HubReport("Fetch daily papers", summary, lines, context.widget)
        offer_triage(context, report, [r.digest_id for r in reports if r.digest_id])
        context.features["hub"].show_report(report)

    return context.ops.run("Fetching daily papers", job, done)


def ask_fetch(context: Context) -> None:
    dialog = FetchDialog(context.widget)
    if dialog.exec() == QDialog.DialogCode.Accepted:
        first, last = dialog.days()
        fetch(context, first, max(first, last))


class Hub(Feature):
    """Paper > Complete from Hugging Face (three scopes, and after imports), File > Fetch
    daily papers…; ``report`` is the last report shown."""

    name = "hub"

    def install(self, context: Context) -> None:
        super().install(context)
        self.report: QDialog | None = None
        menus = context.menus
        self.menu = menus.add_submenu("paper", "Complete from &Hugging Face")
        for scope, text in (("selection", "&Selected papers"), ("list", "Papers in this &list"),
                            ("all", "&Every paper still missing something")):
            menus.add(self.menu, f"complete_{scope}", text, lambda s=scope: complete(context, s))
        self.menu.addSeparator()
        self.after = menus.add(self.menu, "complete_after_import",
                               "Complete &new papers after import",
                               lambda: settings.save({AFTER_IMPORT: self.after.isChecked()}),
                               checkable=True)
        self.after.setChecked(settings.settings().value(AFTER_IMPORT, False, type=bool))
        context.importer.done.connect(self._after_import)
        menus.separator("file", before="quit")
        menus.add("file", "fetch_daily", "Fetch &daily papers…", lambda: ask_fetch(context),
                  before="quit")

    def show_report(self, report: QDialog) -> None:
        self.report = report
        report.open()

    def _after_import(self, reports: list) -> None:
        """With the setting on, the papers an import added are completed once it is done
        (not those already in the library that its entries merged into)."""
        ids = [pid for r in reports for pid in (getattr(r, "created_ids", None) or [])]
        if self.after.isChecked() and ids:
            complete(self.context, "imported", list(dict.fromkeys(ids)))

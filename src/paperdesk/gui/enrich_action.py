"""Complete from Hugging Face, and File > Fetch daily papers…: the window's network jobs.

Both run on the window's background worker with progress and Cancel, and end
in a report. A completion is one undoable edit (Edit > Undo puts every paper
back); a cancelled one keeps what the Hub had already answered. Nothing here
talks to the network unless the user picks one of these actions.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QDate
from PySide6.QtWidgets import (
    QDateEdit,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
)

from paperdesk.gui import settings

if TYPE_CHECKING:
    from paperdesk.core.db.changes import Changes
    from paperdesk.gui.main_window import MainWindow

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
    lines = [f"Not found on the Hub: {pid} {title}" for pid, title in result.not_found]
    lines += [f"Left alone: {pid} {title}: {why}" for pid, title, why in result.unsure]
    lines += [f"Failed: {pid} {title}: {why}" for pid, title, why in result.failed]
    return lines


def scope_ids(window: MainWindow, scope: str) -> list[int] | None:
    """The papers a scope means: the selection, the list shown, or None for everything."""
    if scope == "selection":
        return window.selected_ids()
    if scope == "list":
        return window.fetch_ids(None, False, None)[0]
    return None


def complete(window: MainWindow, scope: str, ids: list[int] | None = None) -> int | None:
    """Start completing the papers of ``scope`` (or ``ids``) on the worker; the job id."""
    ids = ids if ids is not None else scope_ids(window, scope)
    if ids is not None and not ids:
        window.notify("Select the papers to complete first")
        return None
    window.hub_report = None

    def job(lib, progress, cancel) -> Changes:
        return lib.enrich(ids, progress=progress, cancel=cancel)

    def done(changes: Changes) -> None:
        result = changes.result
        window.statusBar().showMessage(result.summary(), 10000)
        show_report(window, HubReport("Complete from Hugging Face", result.summary(),
                                      enrich_lines(result), window))

    return window.context.ops.run("Completing from Hugging Face", job, done, undo=True)


def show_report(window: MainWindow, report: QDialog) -> None:
    window.hub_report = report
    report.open()


class FetchDialog(QDialog):
    """From and to dates for File > Fetch daily papers…."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Fetch daily papers")
        today = QDate.currentDate()
        self.first = QDateEdit(today.addDays(-1))
        self.last = QDateEdit(today.addDays(-1))
        for edit in (self.first, self.last):
            edit.setCalendarPopup(True)
            edit.setDisplayFormat("yyyy-MM-dd")
            edit.setMaximumDate(today)
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


def fetch(window: MainWindow, first: dt.date, last: dt.date) -> int | None:
    """Start fetching the daily papers of ``first``..``last`` on the worker."""
    def job(lib, progress, cancel) -> list:
        return lib.fetch_daily(first, last, progress=progress, cancel=cancel)

    def done(reports: list) -> None:
        imported = sum(r.papers for r in reports if r.status == "imported")
        summary = (f"Fetched {len(reports)} day{'s' * (len(reports) != 1)}: "
                   f"{imported} papers, {sum(r.new_papers for r in reports)} new")
        lines = [f"{r.day}: {r.error or r.status}" for r in reports]
        lines += [f"  {w}" for r in reports for w in r.warnings]
        window.statusBar().showMessage(summary, 10000)
        show_report(window, HubReport("Fetch daily papers", summary, lines, window))

    return window.context.ops.run("Fetching daily papers", job, done)


def ask_fetch(window: MainWindow) -> None:
    dialog = FetchDialog(window)
    if dialog.exec() == QDialog.DialogCode.Accepted:
        first, last = dialog.days()
        fetch(window, first, max(first, last))


def _after_import(window: MainWindow, reports: list) -> None:
    """With the setting on, an import's papers are completed once it is done."""
    action = window.actions_by_name.get("complete_after_import")
    ids = [pid for r in reports for pid in (getattr(r, "paper_ids", None) or [])]
    if action is not None and action.isChecked() and ids:
        complete(window, "imported", list(dict.fromkeys(ids)))


def install(window: MainWindow, file_menu, paper_menu, add_action) -> None:
    """Menu entries: Paper > Complete from Hugging Face (3 scopes), File > Fetch…."""
    window.hub_report = None
    sub = paper_menu.addMenu("Complete from &Hugging Face")
    window.hub_menu = sub
    for scope, text in (("selection", "&Selected papers"), ("list", "Papers in this &list"),
                        ("all", "&Every paper still missing something")):
        add_action(window, sub, f"complete_{scope}", text,
                   lambda s=scope: complete(window, s))
    sub.addSeparator()
    after = add_action(window, sub, "complete_after_import", "Complete &new papers after import",
                       lambda: settings.save({AFTER_IMPORT: after.isChecked()}))
    after.setCheckable(True)
    after.setChecked(settings.settings().value(AFTER_IMPORT, False, type=bool))
    window.importer.done.connect(lambda reports: _after_import(window, reports))
    add_action(window, file_menu, "fetch_daily", "Fetch &daily papers…",
               lambda: ask_fetch(window), before=window.actions_by_name.get("quit"))

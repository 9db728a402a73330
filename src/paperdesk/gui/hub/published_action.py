"""Paper > Find published version…: where the selected preprints appeared, from DBLP and
Semantic Scholar (``lib.published``), and the versions the user accepts.

The look-up runs on the worker with progress and Cancel, and changes nothing. The
dialog then lists each paper with its candidates and what accepting one changes in the
export; a paper's only candidate is ticked, a paper with several has none ticked (the
user chooses: never guessed), and a service's failure is one line under the paper.
Accept records the ticked ones as one undoable edit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
)

from paperdesk.gui.context import Feature, context_of

if TYPE_CHECKING:
    from paperdesk.gui.context import Context


class PublishedDialog(QDialog):
    """The findings, a paper a row and a candidate a child row with a check box."""

    def __init__(self, findings: list[Any], stopped: str | None, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Find published version")
        self.findings = findings
        found = sum(1 for f in findings if f.candidates)
        text = (f"{found} of {len(findings)} papers have a published version. Tick the "
                "ones to record: exports then write the venue entry and keep the arXiv id.")
        if stopped:
            text += f" Stopped early: {stopped}."
        self.summary = QLabel(text)
        self.summary.setWordWrap(True)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Paper / published version", "What changes"])
        self.tree.setColumnWidth(0, 420)
        self.items: list[tuple[QTreeWidgetItem, int, Any]] = []
        for finding in findings:
            top = QTreeWidgetItem([f"{finding.citekey}: {finding.title}",
                                   f"arXiv:{finding.arxiv_id}"])
            self.tree.addTopLevelItem(top)
            for venue in finding.candidates:
                child = QTreeWidgetItem([f"{venue.venue} {venue.year or ''} ({venue.source})",
                                         "; ".join(finding.changes(venue))])
                child.setFlags(child.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                one = len(finding.candidates) == 1
                child.setCheckState(0, Qt.CheckState.Checked if one else
                                    Qt.CheckState.Unchecked)
                top.addChild(child)
                self.items.append((child, finding.paper_id, venue))
            if len(finding.candidates) > 1:
                top.addChild(QTreeWidgetItem(["Several candidates: tick the right one", ""]))
            if not finding.candidates:
                top.addChild(QTreeWidgetItem(["No published version found", ""]))
            for line in finding.problems:
                top.addChild(QTreeWidgetItem([f"⚠ {line}", ""]))
            top.setExpanded(True)
        self.tree.itemChanged.connect(self._one_a_paper)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Accept")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.tree)
        layout.addWidget(self.buttons)
        self.resize(900, 420)

    def _one_a_paper(self, item: QTreeWidgetItem, _column: int) -> None:
        """Ticking a candidate unticks the paper's others: one version a paper."""
        if item.checkState(0) != Qt.CheckState.Checked:
            return
        pid = next((p for i, p, _v in self.items if i is item), None)
        for other, other_pid, _venue in self.items:
            if other is not item and other_pid == pid:
                other.setCheckState(0, Qt.CheckState.Unchecked)

    def chosen(self) -> list[tuple[int, Any]]:
        return [(pid, venue) for item, pid, venue in self.items
                if item.checkState(0) == Qt.CheckState.Checked]


def find_published(owner: Any) -> int | None:
    """Look up the selected papers on the worker; the dialog opens with the findings."""
    context = context_of(owner)
    ids = context.selected_ids()
    if not ids:
        context.notify("Select the papers to look up first")
        return None
    feature = context.features["published"]

    def job(lib, progress, cancel):
        return lib.published.find(ids, progress=progress, cancel=cancel)

    def done(result) -> None:
        findings, stopped = result
        if stopped and not any(f.candidates for f in findings):
            context.notify(f"{stopped}; nothing changed")
            return
        feature.dialog = PublishedDialog(findings, stopped, context.widget)
        feature.dialog.accepted.connect(lambda: accept(context, feature.dialog.chosen()))
        feature.dialog.open()

    return context.ops.run("Finding published versions", job, done)


def accept(context: Context, chosen: list[tuple[int, Any]]) -> None:
    if not chosen:
        context.show_message("No published version recorded", 5000)
        return
    context.ops.run("Accepting published versions",
                    lambda lib, _p, _c: lib.published.accept_all(chosen),
                    lambda _changes: context.show_message(
                        f"Recorded {len(chosen)} published version"
                        f"{'s' * (len(chosen) != 1)}; exports write the venue entry", 8000),
                    undo=True, inline=True)


class FindPublished(Feature):
    """Paper > Find published version…."""

    name = "published"

    def install(self, context: Context) -> None:
        super().install(context)
        self.dialog: PublishedDialog | None = None
        context.menus.add("paper", "find_published", "Find &published version…",
                          lambda: find_published(context))

"""Reviewing duplicates: the groups a scan found, side by side, merged or set apart.

The scan runs on the worker whenever the library may have changed (at start,
after imports, after an undo); the sidebar's "Duplicates" entry shows how many
groups are open. Merges and "not duplicates" are core edits on the undo stack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from paperdesk.core.api import DUPLICATE_GROUPS, TIERS, Group, plural
from paperdesk.gui import operations
from paperdesk.gui.common import dialogs
from paperdesk.gui.duplicates.compare_table import CompareTable

if TYPE_CHECKING:
    from paperdesk.gui.context import Context

SOURCE = ("duplicates", None)
GROUP_ROLE = Qt.ItemDataRole.UserRole
RESCAN_DELAY_MS = 400
MAX_LISTED = 2000  # groups listed at once (merging some brings the next ones in)
HINT = ("Click a column's header to keep that paper; click a value to keep it in the merged "
        "paper. Tags, notes and sightings of all the papers go to the kept one.")


class DuplicatesView(QWidget):
    count_changed = Signal()  # the number of open groups may have changed

    def __init__(self, context: Context) -> None:
        super().__init__()
        self.context = context
        self.groups: list[Group] | None = None   # None until the first scan is back
        self.scanning = False
        self._again = False
        self._focus: list[int] = []  # papers whose group to show once the scan is back
        self._lib_path = context.lib.path
        self._timer = QTimer(self, singleShot=True, interval=RESCAN_DELAY_MS)
        self._timer.timeout.connect(self.scan)

        top = self._build_top()
        split = self._build_split()
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(split, 1)

        context.changed.connect(self._changed)
        self.fill()

    def _build_top(self) -> QHBoxLayout:
        """The heading, the tier filter, and Scan again, Merge all certain, Merge history."""
        self.heading = QLabel()
        font = self.heading.font()
        font.setPointSizeF(font.pointSizeF() * 1.2)
        font.setBold(True)
        self.heading.setFont(font)
        self.tier = QComboBox()
        self.tier.addItem("All tiers", None)
        for tier in TIERS:
            self.tier.addItem(tier.capitalize(), tier)
        self.tier.currentIndexChanged.connect(lambda _i: self.fill())
        self.rescan = QPushButton("Scan again")
        self.rescan.clicked.connect(self.scan)
        self.merge_all = QPushButton("Merge all certain…")
        self.merge_all.clicked.connect(self.merge_all_certain)
        self.history = QPushButton("Merge history…")
        self.history.clicked.connect(self.show_history)
        top = QHBoxLayout()
        top.addWidget(self.heading, 1)
        for widget in (self.tier, self.rescan, self.merge_all, self.history):
            top.addWidget(widget)
        return top

    def _build_split(self) -> QSplitter:
        """The list of groups on the left, the open group side by side on the right."""
        self.list = QListWidget()
        self.list.setMinimumWidth(260)
        self.list.setWordWrap(True)
        self.list.setAlternatingRowColors(True)
        self.list.setSpacing(2)
        self.list.currentRowChanged.connect(lambda _r: self.show_group())
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.list)
        split.addWidget(self._build_group())
        split.setStretchFactor(1, 1)
        split.setSizes([300, 900])
        return split

    def _build_group(self) -> QWidget:
        """The evidence, the papers compared, the hint and the Merge / Not duplicates buttons."""
        self.evidence = QLabel()
        self.evidence.setWordWrap(True)
        self.evidence.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.compare = CompareTable()
        self.compare.changed.connect(self._update_buttons)
        self.hint = QLabel(HINT)
        self.hint.setWordWrap(True)
        self.hint.setEnabled(False)
        self.merge = QPushButton("Merge")
        self.merge.setDefault(True)
        self.merge.clicked.connect(self.merge_current)
        self.different = QPushButton("Not duplicates")
        self.different.clicked.connect(self.not_duplicates)
        for button, keys in ((self.merge, "Ctrl+Return"), (self.different, "Ctrl+Backspace")):
            button.setShortcut(QKeySequence(keys))
            button.setToolTip(QKeySequence(keys).toString(QKeySequence.SequenceFormat.NativeText))
        buttons = QHBoxLayout()
        buttons.addWidget(self.hint, 1)
        buttons.addWidget(self.different)
        buttons.addWidget(self.merge)
        right = QWidget()
        column = QVBoxLayout(right)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.evidence)
        column.addWidget(self.compare, 1)
        column.addLayout(buttons)
        return right

    # -- scanning ------------------------------------------------------------------

    def count(self) -> int | None:
        """Open groups, for the sidebar (None while the first scan runs)."""
        if self.context.lib.path != self._lib_path:  # another library was opened
            self._lib_path = self.context.lib.path
            self.groups = None
            QTimer.singleShot(0, self.fill)  # not while the sidebar is being filled
            self.invalidate()
        return None if self.groups is None else len(self.groups)

    def invalidate(self) -> None:
        """The library may have changed: scan again soon."""
        self._timer.start()

    def scan(self) -> None:
        if self.context.ops.closed:
            return
        if self.scanning:
            self._again = True
            return
        self.scanning = True
        self._again = False
        self.rescan.setEnabled(False)
        self.heading.setText("Looking for duplicates…")
        self.context.ops.run(
            "Looking for duplicates",
            lambda lib, progress, cancel: lib.duplicates.scan(progress=progress, cancel=cancel),
            self._scanned, self._scan_failed, quiet=True, initiator=self)

    def _scanned(self, groups: list[Group]) -> None:
        self.scanning = False
        self.rescan.setEnabled(True)
        if self._again:
            self.scan()
            return
        self.groups = groups
        self.fill()

    def _scan_failed(self, message: str) -> None:
        self.scanning = False
        self.rescan.setEnabled(True)
        self.fill()
        self.context.notify(message)

    def _changed(self, changes, initiator) -> None:
        """After a write it did not make itself that concerns the groups: rescan."""
        if initiator is self or self.context.ops.closed:
            return
        if DUPLICATE_GROUPS in changes.views:
            self.invalidate()

    # -- showing -------------------------------------------------------------------

    def shown_groups(self) -> list[Group]:
        tier = self.tier.currentData()
        return [g for g in self.groups or [] if tier is None or g.tier == tier]

    def certain_groups(self) -> list[Group]:
        return [g for g in self.groups or [] if g.tier == "certain"]

    def fill(self) -> None:
        """List the groups again, keeping the place in the list."""
        row = max(0, self.list.currentRow())
        shown = self.shown_groups()
        titles = self.context.lib.browse.titles([g.ids[0] for g in shown[:MAX_LISTED]])
        self.list.blockSignals(True)
        self.list.clear()
        for group in shown[:MAX_LISTED]:
            title = titles.get(group.ids[0], "an untitled paper")
            item = QListWidgetItem(f"{group.tier.capitalize()} · {group.score}% · "
                                   f"{len(group.ids)} papers\n{title}")
            item.setToolTip(", ".join(group.evidence))
            item.setData(GROUP_ROLE, group.ids)
            self.list.addItem(item)
        self.list.blockSignals(False)
        if shown:
            self.list.setCurrentRow(min(row, len(shown) - 1, self.list.count() - 1))
        if self._focus and self.groups is not None and not self.scanning:
            focus, self._focus = self._focus, []
            any(self.select_paper(pid) for pid in focus)
        self.show_group()
        self._update_heading()
        self.count_changed.emit()

    def _update_heading(self) -> None:
        if self.groups is None:
            self.heading.setText("Looking for duplicates…")
        elif not self.groups:
            self.heading.setText("No duplicates to review")
        else:
            certain = len(self.certain_groups())
            self.heading.setText(f"{plural(len(self.groups), 'group')} to review"
                                 + (f" ({certain} certain)" if certain else ""))
        certain = len(self.certain_groups())
        self.merge_all.setText(f"Merge all certain ({certain})…")
        self.merge_all.setEnabled(certain > 0)

    def current_group(self) -> Group | None:
        item = self.list.currentItem()
        if item is None:
            return None
        ids = item.data(GROUP_ROLE)
        return next((g for g in self.groups or [] if g.ids == ids), None)

    def show_group(self) -> None:
        group = self.current_group()
        if group is None:
            self.compare.clear_group()
            self.evidence.setText("" if self.groups is None else
                                  "Nothing to review here." if not self.shown_groups() else "")
        else:
            self.compare.set_group(self.context.lib, group.ids)
            self.evidence.setText(f"<b>{group.tier.capitalize()}</b>, score {group.score}%: "
                                  + "; ".join(group.evidence))
        self._update_buttons()

    def _update_buttons(self) -> None:
        ready = self.current_group() is not None and len(self.compare.ids) > 1
        self.merge.setEnabled(ready)
        self.different.setEnabled(ready)
        if ready:
            others = self.compare.others()
            self.merge.setText(f"Merge {plural(len(others), 'paper')} into paper "
                               f"{self.compare.keep}")

    def focus(self, paper_ids: list[int]) -> None:
        """Show the group of the first of ``paper_ids`` that has one (after the next scan)."""
        self._focus = list(paper_ids)
        if self.groups is not None and not self.scanning and not self._timer.isActive():
            self.fill()

    def select_paper(self, paper_id: int) -> bool:
        """Show the group holding ``paper_id``; False when none does."""
        for row in range(self.list.count()):
            if paper_id in self.list.item(row).data(GROUP_ROLE):
                self.list.setCurrentRow(row)
                return True
        return False

    # -- acting ----------------------------------------------------------------------

    def _edit(self, fn, *args):
        return self.context.ops.edit(fn, *args, initiator=self)

    def _drop(self, ids: list[int]) -> None:
        """Groups that held these papers are settled; the next scan says what is left."""
        gone = set(ids)
        self.groups = [g for g in self.groups or [] if not gone & set(g.ids)]
        self.fill()

    def merge_current(self) -> None:
        group = self.current_group()
        if group is None or self.compare.keep is None:
            return
        changes = self._edit(self.context.lib.duplicates.merge, self.compare.keep,
                             self.compare.others(), self.compare.choices())
        if changes is not None:
            self._drop(group.ids)
            self.context.show_message(changes.label, 6000)

    def not_duplicates(self) -> None:
        group = self.current_group()
        if group is None:
            return
        if self._edit(self.context.lib.duplicates.mark_different, group.ids) is not None:
            self._drop(group.ids)

    def merge_all_certain(self) -> None:
        certain = self.certain_groups()
        if not certain:
            return
        papers = sum(len(g.ids) - 1 for g in certain)
        if not dialogs.confirm(
                self, "Merge all certain duplicates",
                f"Merge {plural(len(certain), 'group')} of certain duplicates? "
                f"{plural(papers, 'paper')} will be merged into the ones they repeat. "
                "Each merge can be undone later from the merge history.",
                f"Merge {plural(len(certain), 'group')}"):
            return
        self.context.ops.run(
            "Merging certain duplicates",
            lambda lib, progress, cancel: lib.duplicates.merge_all_certain(progress, cancel),
            self._merged_all, inline=self.context.lib.stats()["papers"] < operations.LARGE,
            undo=True, initiator=self)

    def _merged_all(self, changes) -> None:
        result = changes.result
        self.context.show_message(
            f"Merged {plural(result.get('groups', 0), 'group')} "
            f"({plural(result.get('papers', 0), 'paper')})", 8000)
        self.groups = [g for g in self.groups or [] if g.tier != "certain"]
        self.fill()
        self.invalidate()

    def show_history(self) -> None:
        from paperdesk.gui.duplicates.merge_history import MergeHistory

        dialog = MergeHistory(self.context, self)
        dialog.open()
        self._history = dialog

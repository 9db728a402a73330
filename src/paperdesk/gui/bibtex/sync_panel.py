"""Kept-in-sync files in the window: File > Keep a .bib in sync..., the File >
Synced files list with each file's state, a status-bar line while files are
written or when one failed, and the question to ask when someone else changed
a synced file (overwrite it, or stop syncing it).

The writing itself is ``gui/bibtex/sync_writer.py`` (one listener, debounced, on a
thread); the syncs are the library's (``lib.syncs``), shared with the CLI.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QMessageBox,
    QRadioButton,
    QWidget,
)

from paperdesk.core.api import (
    CHANGED,
    CONFLICT,
    FAILED,
    FORMATS,
    OK,
    WRITING,
    PaperDeskError,
    Sync,
)
from paperdesk.gui.bibtex.sync_writer import SyncWriter
from paperdesk.gui.common import file_form

if TYPE_CHECKING:
    from paperdesk.core.api import Library
    from paperdesk.gui.context import Context

LOOK_MS = 3000  # how often the synced files on disk are looked at
SYNCABLE = [f for f in FORMATS if f.syncable]  # the formats a file can be kept in


class SyncDialog(QDialog):
    """What to keep in sync, and where."""

    def __init__(self, context: Context) -> None:
        super().__init__(context.widget)
        self.context = context
        self.setWindowTitle("Keep a .bib in sync")
        lib = context.lib
        self.path = QLineEdit(str(Path.home() / f"{lib.name}.bib"))
        self.query = QLineEdit(context.selection.query)
        what = self._build_sources(lib)
        self.style = file_form.style_box(self._follow_format, SYNCABLE)
        self.ascii = QCheckBox()
        self._follow_format()
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.buttons = file_form.ok_cancel(self, "Keep in sync", self.path)
        self._lay_out(what)
        self.setMinimumWidth(580)
        self.added: Sync | None = None

    def _build_sources(self, lib: Library) -> QWidget:
        """The choice of papers: one radio button a source, with its field beside it."""
        self.sources = QButtonGroup(self)
        grid = QGridLayout()
        grid.setContentsMargins(0, 0, 0, 0)
        self.query.setPlaceholderText("a search, e.g. tag:to-cite rating>=4")
        self.saved = QComboBox()
        self.saved.addItems([s["name"] for s in lib.curation.saved_searches()])
        self.tag = QComboBox()
        self.tag.addItems([t["name"] for t in lib.curation.tags()])
        rows = [("all", "The whole library", None), ("query", "Papers matching", self.query),
                ("search", "Saved search", self.saved), ("tag", "Tag", self.tag),
                ("reading-list", "The reading list", None)]
        for n, (source, text, field) in enumerate(rows):
            button = QRadioButton(text)
            button.setProperty("source", source)
            self.sources.addButton(button)
            grid.addWidget(button, n, 0)
            if field is not None:
                grid.addWidget(field, n, 1)
                if isinstance(field, QComboBox) and field.count() == 0:
                    button.setEnabled(False)
                    field.setEnabled(False)
        self.sources.buttons()[0].setChecked(True)
        what = QWidget()
        what.setLayout(grid)
        return what

    def _lay_out(self, what: QWidget) -> None:
        note = QLabel("The file is written again about a second after every change that "
                      "affects it, and its citation keys are frozen. If someone else edits "
                      "it, PaperDesk stops and asks before overwriting.")
        note.setWordWrap(True)
        form = QFormLayout(self)
        form.addRow("File:", file_form.path_row(self.path, self.choose_path))
        form.addRow("Papers:", what)
        form.addRow("Format:", self.style)
        form.addRow("", self.ascii)
        form.addRow(note)
        form.addRow(self.message)
        form.addRow(self.buttons)

    def set_options(self, *, path: str | Path | None = None, source: str | None = None,
                    value: str | None = None, style: str | None = None,
                    ascii: bool | None = None) -> None:
        if path is not None:
            self.path.setText(str(path))
        if style is not None:
            self.style.setCurrentIndex(self.style.findData(style))
        if source is not None:
            for button in self.sources.buttons():
                button.setChecked(button.property("source") == source)
        if value is not None:
            chosen = self.source()
            if chosen == "query":
                self.query.setText(value)
            elif chosen in ("search", "tag"):
                box = self.saved if chosen == "search" else self.tag
                box.setCurrentIndex(box.findText(value))
        if ascii is not None:
            self.ascii.setChecked(ascii)

    def source(self) -> str:
        button = self.sources.checkedButton()
        return button.property("source") if button is not None else "all"

    def value(self) -> str:
        return {"query": self.query.text(), "search": self.saved.currentText(),
                "tag": self.tag.currentText()}.get(self.source(), "")

    def _follow_format(self) -> None:
        """The ASCII option (offered when the format takes it) and the file's suffix
        follow the format."""
        chosen = file_form.format_of(self.style)
        self.ascii.setText(f"ASCII only ({chosen.ascii_means})")
        self.ascii.setEnabled("ascii" in chosen.options)
        file_form.match_suffix(self.path, chosen.name)

    def choose_path(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Keep in sync", self.path.text(),
                                              file_form.file_filter(SYNCABLE))
        if path:
            self.path.setText(path)

    def accept(self) -> None:
        path = file_form.chosen_path(self.path)
        if path is None:
            return
        try:
            self.added = self.context.lib.syncs.add(
                path, self.source(), self.value(),
                style=self.style.currentData(),
                ascii=self.ascii.isChecked() and self.ascii.isEnabled())
        except PaperDeskError as exc:
            self.message.setText(f"⚠ {exc}")
            return
        self.context.features["sync"].writer.run([self.added.id])
        super().accept()


class SyncPanel:
    """The menu list, the status line and the questions; owns the window's writer."""

    def __init__(self, context: Context, file_menu: QMenu, before) -> None:
        self.context = context
        self.writer = SyncWriter(context.lib, context, lane=context.executor.lane("syncs"))
        self.states: dict[int, str] = {}  # sync id -> "writing" while it is written
        self.asked: set[int] = set()  # conflicts already put to the user
        self.add_action = context.menus.add(file_menu, "keep_in_sync", "Keep a .bib in &sync…",
                                            self.open_dialog, before=before)
        self.menu = context.menus.add_submenu(file_menu, "S&ynced files", before=before)
        self.status = QLabel()
        self.status.setObjectName("sync-status")
        context.widget.statusBar().addPermanentWidget(self.status)
        self.writer.started.connect(self._started)
        self.writer.finished.connect(self._finished)
        self.writer.listed.connect(lambda *_: self.refresh())
        # What is on disk, not only what was recorded: every few seconds, and after
        # every write, the files are hashed (on the writer's side) and the states shown
        # follow them; written by another program, failed or stopped there, it shows.
        self.disk: dict[int, str | None] = {}
        self.round = 0  # writes finished here: a look begun before the last one is stale
        self.writer.looked.connect(self._looked)
        self.look_timer = QTimer(context.widget, interval=LOOK_MS)
        self.look_timer.timeout.connect(self.look)
        self.look_timer.start()
        context.library_changed.connect(self.writer.set_library)
        context.library_changed.connect(self._forget_disk)
        context.close_hooks.append(self.close)
        self.refresh()

    # -- the list -------------------------------------------------------------------

    def state_text(self, sync: Sync) -> str:
        return WRITING if sync.id in self.writer.writing else sync.state_text()

    def close(self) -> None:
        self.look_timer.stop()
        self.writer.close()

    def _forget_disk(self, *_args) -> None:
        """Another library: the hashes looked at were of its files."""
        self.round += 1
        self.disk = {}

    def look(self) -> None:
        """Hash the files and read the records again, unless a round is under way or
        due (a change waits out its second): that round reads the records, and a look
        follows it."""
        writer = self.writer
        if not writer.busy and not writer.closed and not writer.timer.isActive():
            syncs = self.context.lib.syncs
            self.seen = (self.round, syncs.all())  # read once a look
            writer.look({s.id: s.path for s in self.seen[1]}, self.round)
            if syncs.behind(self.seen[1]):  # a change another program committed, unwritten
                writer.catch_up_found()

    def _looked(self, looked: tuple[int, dict[int, str | None]]) -> None:
        token, hashes = looked
        if token != self.round:
            return  # hashed before the last write: what it saw has been replaced
        self.disk = hashes
        # The records the look read, unless a write came since (its round is past).
        seen = getattr(self, "seen", None)
        self.refresh(seen[1] if seen is not None and seen[0] == token else None)

    def syncs(self, recorded: list[Sync] | None = None) -> list[Sync]:
        """The syncs as recorded (by any program; ``recorded``: as just read), with the
        state their files on disk have (as last hashed)."""
        syncs = self.context.lib.syncs
        # Not hashed yet: taken as recorded (pending all the same, when it is).
        return [syncs.on_disk(s, self.disk.get(s.id, s.written_sha256))
                for s in (syncs.all() if recorded is None else recorded)]

    def refresh(self, recorded: list[Sync] | None = None) -> None:
        self.menu.clear()
        syncs = self.syncs(recorded)
        if not syncs:
            none = self.menu.addAction("No file is kept in sync")
            none.setEnabled(False)
        for sync in syncs:
            sub = self.menu.addMenu(f"{Path(sync.path).name} — {self.state_text(sync)}")
            sub.setToolTip(f"{sync.path}\n{sync.describe()}, {sync.style}")
            sub.addAction(f"{sync.path}").setEnabled(False)
            if sync.state == CONFLICT:  # stopped: a plain write would change nothing
                sub.addAction("Write now: stopped, the file was changed elsewhere; "
                              "overwrite it or stop syncing").setEnabled(False)
                sub.addAction("Overwrite with the library's papers",
                              lambda s=sync: self.writer.run([s.id], overwrite=True))
            else:
                sub.addAction("Write now", lambda s=sync: self.writer.run([s.id]))
            sub.addAction("Stop syncing", lambda s=sync: self.stop(s))
        self._show_status(syncs)

    def _show_status(self, syncs: list[Sync]) -> None:
        writing = [s for s in syncs if s.id in self.writer.writing]
        bad = [s for s in syncs if s.state in (FAILED, CONFLICT, CHANGED) and s.id not in
               self.writer.writing]
        kept = [s for s in syncs if s.kept and s.id not in self.writer.writing]
        if writing:
            text = f"Writing {', '.join(Path(s.path).name for s in writing)}…"
        elif bad:
            text = f"⚠ {Path(bad[0].path).name}: {bad[0].state_text()}"
        elif kept:  # said until the conflict file is dealt with (moved or deleted)
            text = (f"⚠ {Path(kept[0].path).name}: someone else's version, saved while "
                    f"PaperDesk wrote it, is kept beside it as {Path(kept[0].kept).name}")
        else:
            text = ""
        self.status.setText(text)
        self.status.setToolTip("\n".join(f"{s.path}: {self.state_text(s)}" for s in syncs))
        self.status.setVisible(bool(text))

    # -- the writer's news ---------------------------------------------------------------

    def _started(self, _ids, recorded) -> None:
        self.refresh(recorded)  # as the writer just read them, if it did

    def _finished(self, outcomes) -> None:
        self.writer._done()
        self.round += 1
        self.disk = {}  # the state just recorded, until the files are looked at again
        self.refresh()
        self.look()
        for outcome in outcomes:
            if outcome.state == CONFLICT and outcome.sync_id not in self.asked:
                self.asked.add(outcome.sync_id)
                self.ask(outcome.sync_id)
            elif outcome.state == OK:
                self.asked.discard(outcome.sync_id)
                if outcome.kept and outcome.unasked:
                    self.context.notify(
                        f"Updated {Path(outcome.path).name}; someone else's version, saved "
                        f"while it was written, is kept as {outcome.kept}")
                elif outcome.written:
                    self.context.show_message(
                        f"Updated {Path(outcome.path).name} ({outcome.entries} entries)", 4000)

    def ask(self, sync_id: int) -> QMessageBox | None:
        sync = self.context.lib.syncs.get_id(sync_id)
        if sync is None:
            return None
        box = QMessageBox(QMessageBox.Icon.Warning, "Synced file changed",
                          f"{sync.path} was changed by someone else since PaperDesk last "
                          "wrote it, so PaperDesk stopped updating it.\n\nOverwrite it with "
                          "the library's papers, or stop keeping it in sync?",
                          parent=self.context.widget)
        overwrite = box.addButton("Overwrite", QMessageBox.ButtonRole.DestructiveRole)
        stop = box.addButton("Stop syncing", QMessageBox.ButtonRole.ActionRole)
        box.addButton("Decide later", QMessageBox.ButtonRole.RejectRole)

        def answered(_button) -> None:
            clicked = box.clickedButton()
            if clicked is overwrite:
                self.writer.run([sync.id], overwrite=True)
            elif clicked is stop:
                self.stop(sync)

        box.buttonClicked.connect(answered)
        box.open()
        self.question = box
        return box

    def stop(self, sync: Sync) -> None:
        try:
            self.context.lib.syncs.remove(sync.path)
        except PaperDeskError as exc:
            self.context.notify(str(exc))
            return
        self.context.show_message(f"Stopped keeping {sync.path} in sync", 5000)

    def open_dialog(self) -> SyncDialog:
        dialog = SyncDialog(self.context)
        dialog.open()
        self.dialog = dialog
        return dialog


def install(context: Context, file_menu: QMenu, before) -> SyncPanel:
    return SyncPanel(context, file_menu, before)


"""The window shares its library on its own: File > Share library… starts, shows and
stops sharing; an exchange runs on the worker after each committed write and when the
shared folder changes (looked at once a second); the status bar says how it stands."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QFileDialog, QLabel, QMessageBox

from paperdesk.core.api import SYNCS, Changes
from paperdesk.gui.context import Feature

if TYPE_CHECKING:
    from paperdesk.core.api import Library
    from paperdesk.gui.context import Context

LOOK_MS = 1000  # how often the shared folder is looked at
AFTER_WRITE_MS = 300  # a burst of writes is one exchange


class Share(Feature):
    name = "share"

    def install(self, context: Context) -> None:
        super().install(context)
        context.menus.add("file", "share", "S&hare library…", self.ask)
        self.label = QLabel("")
        context.widget.statusBar().addPermanentWidget(self.label)
        self.soon = QTimer(context, singleShot=True, interval=AFTER_WRITE_MS)
        self.soon.timeout.connect(self.exchange)
        self.timer = QTimer(context, interval=LOOK_MS)
        self.timer.timeout.connect(self.look)
        self.timer.start()
        self.running = False
        self.again = False
        self.exchanges = 0  # finished, for tests and the status line
        self.seen: Any = None
        # Where the library is shared (None: it is not), read when it may have changed:
        # for another library, and after a write of the syncs' kind (starting or
        # stopping a share is one, here or in another program), not at every look.
        self.where: str | None = None
        self.library_changed(context.lib)

    def library_changed(self, lib: Library) -> None:
        self.where = lib.share.where
        self.seen = self._folder_state()
        self._show()
        if self.where is not None:
            self.soon.start()

    def changes_applied(self, changes: Changes, initiator: object | None) -> None:
        if SYNCS in changes.kinds:
            self.where = self.context.lib.share.where
        if initiator is self or changes.how == "shared" or not changes.kinds:
            return
        if self.where is not None:
            self.soon.start()

    def _folder_state(self) -> Any:
        where = self.where
        if where is None or not os.path.isdir(where):
            return None
        try:
            return sorted((e.name, e.stat().st_size, e.stat().st_mtime_ns)
                          for e in os.scandir(where) if not e.name.startswith("."))
        except OSError:
            return None

    def look(self) -> None:
        """An exchange when the shared folder changed since the last look."""
        now = self._folder_state()
        if now is not None and now != self.seen:
            self.seen = now
            self.exchange()

    def exchange(self) -> None:
        if self.where is None:
            return
        if self.running:
            self.again = True
            return
        self.running = True
        self.context.ops.run("Sharing", lambda lib, _p, _c: lib.share.now(), self._done,
                             self._failed, quiet=True, undo=True, initiator=self,
                             cancellable=False)

    def _done(self, _changes: Changes) -> None:
        self.running = False
        self.exchanges += 1
        self.seen = self._folder_state()
        self._show()
        if self.again:
            self.again = False
            self.exchange()

    def _failed(self, message: str) -> None:
        self.running = False
        self.context.notify(message)
        self._show()

    def _show(self) -> None:
        status = self.context.lib.share.status()
        if status.where is None:
            self.label.setText("")
            return
        text = "Shared" + (f" as {status.person}" if status.person else "")
        if status.waiting or status.conflicted:
            text += f" · {len(status.waiting) + len(status.conflicted)} to look at"
        self.label.setText(text)
        self.label.setToolTip(f"Through {status.where}; last exchange "
                              f"{status.last_exchange or 'never'}")

    def ask(self) -> None:
        """File > Share library…: choose a folder, or see the share and stop it."""
        ctx = self.context
        status = ctx.lib.share.status()
        if status.where is None:
            folder = QFileDialog.getExistingDirectory(
                ctx.widget, "Share this library through a folder your sync tool keeps")
            if folder:
                ctx.ops.run("Sharing", lambda lib, _p, _c: lib.share.start(folder),
                            self._done, self._failed, undo=True, initiator=self,
                            cancellable=False)
            return
        lines = [f"Shared through {status.where}",
                 f"Last exchange: {status.last_exchange or 'never'}",
                 f"Computers seen: {len(status.devices)}",
                 *(f"Waiting: {w}" for w in status.waiting),
                 *(f"Conflicted: {c}" for c in status.conflicted)]
        box = QMessageBox(QMessageBox.Icon.Information, "Share library", "\n".join(lines),
                          parent=ctx.widget)
        now = box.addButton("Exchange now", QMessageBox.ButtonRole.AcceptRole)
        stop = box.addButton("Stop sharing", QMessageBox.ButtonRole.DestructiveRole)
        box.addButton(QMessageBox.StandardButton.Close)
        box.exec()
        if box.clickedButton() is now:
            self.exchange()
        elif box.clickedButton() is stop:
            ctx.lib.share.stop()
            self._show()

    def close(self) -> None:
        self.timer.stop()
        self.soon.stop()

"""The status bar's one message area: each message is shown alone and for long enough
to be read.

Every message of the window (``Context.show_message`` and ``notify``) comes here.
The newest message wins at once (it answers what the user just did); the one it
replaced before it could be read (younger than ``READ_MS``) comes back once the
newest has had its ``READ_MS``, for the rest of its time. Today's summary used to
be replaced by the line that followed it before anyone could read it. The same
text twice in a row is shown once. Nothing else paints text in the message area: the count
line is hidden while a message shows, as the status bar does with its own widgets.
"""

from __future__ import annotations

from collections import deque

from PySide6.QtCore import QElapsedTimer, QObject, QTimer
from PySide6.QtWidgets import QStatusBar

READ_MS = 2500  # the least time a message stays before the next one replaces it


class MessageLine(QObject):
    def __init__(self, bar: QStatusBar) -> None:
        super().__init__(bar)
        self.bar = bar
        self.waiting: deque[tuple[str, int]] = deque()
        self._age = QElapsedTimer()
        self._turn = QTimer(self, singleShot=True)
        self._turn.timeout.connect(self._next)
        self._ms = 0  # how long the message shown was to stay

    def show(self, text: str, ms: int) -> None:
        """Show ``text`` for ``ms`` milliseconds, now; the message it replaces before
        it could be read waits to be shown again."""
        shown = self.bar.currentMessage()
        if text == shown:
            return
        self.waiting = deque(m for m in self.waiting if m[0] != text)
        if shown and self._age.isValid() and self._age.elapsed() < READ_MS:
            self.waiting.appendleft((shown, max(READ_MS, self._ms - self._age.elapsed())))
        self._put(text, ms)
        if self.waiting:
            self._turn.start(READ_MS)

    def drop(self, text: str) -> None:
        """``text`` is no longer true: off the line, whether shown or waiting."""
        self.waiting = deque(m for m in self.waiting if m[0] != text)
        if self.bar.currentMessage() == text:
            self.bar.clearMessage()
            self._next()

    def _put(self, text: str, ms: int) -> None:
        # A message that waited is shown for its whole time, counted from now.
        self.bar.showMessage(text, ms)
        self._age.start()
        self._ms = ms

    def _next(self) -> None:
        if not self.waiting:
            return
        self._put(*self.waiting.popleft())
        if self.waiting:
            self._turn.start(READ_MS)

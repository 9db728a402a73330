"""A reading thread for long id lists, so the table never waits for them.

The table shows its first page from the UI thread's connection at once; the
full list (up to the whole library) is read here, on a connection of this
thread's own, and handed back with the request's token. Only the newest
request matters: older ones still queued are skipped.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QThread, Signal

from paperdesk.core.errors import PaperDeskError
from paperdesk.core.library import Library

Read = Callable[[Library], Any]


class Reader(QThread):
    done = Signal(int, object, object)  # token, result, error message or None

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._lock = threading.Condition()
        self._request: tuple[int, Path, Read] | None = None
        self._stopping = False

    def request(self, token: int, path: Path, read: Read) -> None:
        """Run ``read(lib)`` on this thread; replaces any request not yet started."""
        with self._lock:
            self._request = (token, Path(path), read)
            self._lock.notify()
        if not self.isRunning():
            self.start()

    def stop(self) -> None:
        with self._lock:
            self._stopping = True
            self._request = None
            self._lock.notify()
        self.wait()

    def run(self) -> None:
        lib: Library | None = None
        try:
            while True:
                with self._lock:
                    while self._request is None and not self._stopping:
                        self._lock.wait()
                    if self._stopping:
                        return
                    token, path, read = self._request
                    self._request = None
                if lib is None or lib.path != path.absolute():
                    if lib is not None:
                        lib.close()
                    lib = Library.open(path, create=False)
                try:
                    self.done.emit(token, read(lib), None)
                except PaperDeskError as exc:
                    self.done.emit(token, None, str(exc))
        except PaperDeskError as exc:
            self.done.emit(-1, None, str(exc))
        finally:
            if lib is not None:
                lib.close()

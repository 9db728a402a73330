"""A reading thread for long id lists, so the table never waits for them.

The table shows its first page from the UI thread's connection at once; the
full list (up to the whole library) is read here, on a connection of this
thread's own, and handed back with the request's token; so are the sidebar's
counts after an edit. Per kind of read only the newest request matters: an
older one still queued is replaced.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QThread, Signal

from paperdesk.core.api import Library, PaperDeskError

Read = Callable[[Library], Any]


class Reader(QThread):
    done = Signal(str, int, object, object)  # kind, token, result, error message or None

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._lock = threading.Condition()
        self._requests: dict[str, tuple[int, Path, Read]] = {}
        self._stopping = False
        self._reading = False

    @property
    def busy(self) -> bool:
        """Whether a read is queued or running."""
        with self._lock:
            return bool(self._requests) or self._reading

    def request(self, kind: str, token: int, path: Path, read: Read) -> None:
        """Run ``read(lib)`` on this thread; replaces a request of ``kind`` not yet started."""
        with self._lock:
            self._requests[kind] = (token, Path(path), read)
            self._lock.notify()
        if not self.isRunning():
            self.start()

    def stop(self) -> None:
        with self._lock:
            self._stopping = True
            self._requests.clear()
            self._lock.notify()
        self.wait()

    def run(self) -> None:
        lib: Library | None = None
        try:
            while True:
                with self._lock:
                    while not self._requests and not self._stopping:
                        self._lock.wait()
                    if self._stopping:
                        return
                    kind = next(iter(self._requests))
                    token, path, read = self._requests.pop(kind)
                    self._reading = True
                if lib is None or lib.path != path.absolute():
                    if lib is not None:
                        lib.close()
                    lib = Library.open(path, create=False)
                try:
                    self.done.emit(kind, token, read(lib), None)
                except PaperDeskError as exc:
                    self.done.emit(kind, token, None, str(exc))
                except Exception as exc:  # a message for the status bar, not a dead thread
                    self.done.emit(kind, token, None, f"reading the library failed: "
                                                      f"{type(exc).__name__}: {exc}")
                finally:
                    with self._lock:
                        self._reading = False
        except PaperDeskError as exc:
            self.done.emit("", -1, None, str(exc))
        finally:
            if lib is not None:
                lib.close()

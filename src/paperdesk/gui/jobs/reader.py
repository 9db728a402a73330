"""Reads of long id lists off the UI thread, so the table never waits for them.

The table shows its first page from the UI thread's connection at once; the
full list (up to the whole library) is read on the executor's ``reads`` lane, on
the lane's own connection (``gui/jobs/executor.py``), and handed back with the
request's token; so are the sidebar's counts after an edit. Per kind of read only
the newest request matters: an older one not yet begun is replaced. Once stopped (the
window closing), a read that was under way is not delivered: its library is closed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from paperdesk.core.api import Library, PaperDeskError
from paperdesk.gui.jobs.executor import Executor, Lane

Read = Callable[[Library], Any]


class Reader(QObject):
    done = Signal(str, int, object, object)  # kind, token, result, error message or None
    _ready = Signal(str, int, object, object)  # the same, from the lane: to ``_deliver``

    def __init__(self, parent=None, *, lane: Lane | None = None) -> None:
        super().__init__(parent)
        self.lane = lane or Executor().lane("reads")  # alone: a lane of its own
        self._lock = threading.Lock()
        self._requests: dict[str, tuple[int, Path, Read]] = {}
        self._reading = False
        self._stopped = False
        self._ready.connect(self._deliver)  # on the UI thread, queued from the lane

    @property
    def busy(self) -> bool:
        """Whether a read is queued or running."""
        with self._lock:
            return bool(self._requests) or self._reading

    def request(self, kind: str, token: int, path: Path, read: Read) -> None:
        """Run ``read(lib)`` on the lane; replaces a request of ``kind`` not yet begun."""
        with self._lock:
            self._stopped = False
            queued = kind in self._requests
            self._requests[kind] = (token, Path(path), read)
        if not queued:  # else the task already queued for this kind reads the newest
            self.lane.put(lambda lane: self._read(lane, kind))

    def stop(self) -> None:
        """Drop the requests not begun; the lane ends once the read under way is done."""
        with self._lock:
            self._requests.clear()
            self._stopped = True
        self.lane.stop()

    def _deliver(self, kind: str, token: int, result: Any, error: str | None) -> None:
        if not self._stopped:
            self.done.emit(kind, token, result, error)

    def _read(self, lane: Lane, kind: str) -> None:
        with self._lock:
            request = self._requests.pop(kind, None)
            if request is None:  # dropped (stop)
                return
            self._reading = True
        token, path, read = request
        try:
            self._ready.emit(kind, token, read(lane.library(path)), None)
        except PaperDeskError as exc:
            self._ready.emit(kind, token, None, str(exc))
        except Exception as exc:  # a message for the status bar, not a dead lane
            self._ready.emit(kind, token, None, f"reading the library failed: "
                                                f"{type(exc).__name__}: {exc}")
        finally:
            with self._lock:
                self._reading = False

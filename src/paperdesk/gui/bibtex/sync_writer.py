"""The window's writer of kept-in-sync files: one listener, a debounce, a lane.

``SyncWriter`` listens to the window's library. A change that may alter a
synced file starts a one-second timer (each further change restarts it);
when it fires, the files are written on the executor's ``syncs`` lane, on the
lane's own connection to the library, kept open from round to round
(``gui/jobs/executor.py``; ``lib.sync_feed.catch_up``), so typing never waits
for a 100,000-entry file. The syncs a round writes are read once, on the UI
thread: the panel shows them (``started``) and the lane writes them (each read
again under its file's lock). While a write runs, further changes wait for the
next round. Outcomes come back to the UI thread through ``finished``; the files'
hashes (``look``) are taken on the same lane.

Every round also writes the syncs the library says are pending (changes of a
command that stopped after its commit and before it wrote them); the panel asks
for such a round when it finds one (``catch_up_found``) while nothing of the
window's own is waiting.
"""

from __future__ import annotations

import contextlib
import os
import threading

from PySide6.QtCore import QObject, QTimer, Signal

from paperdesk.core.api import SYNCS, Changes, Library, PaperDeskError
from paperdesk.gui.jobs.executor import Executor, Lane

DEBOUNCE_MS = 1000


class SyncWriter(QObject):
    started = Signal(object, object)  # sync ids being written; the syncs read, or None
    finished = Signal(object)   # list of sync_write.Outcome
    listed = Signal()           # syncs added, removed or their state changed here
    looked = Signal(object)     # (token, {sync id: the file's SHA-256 on disk or None})

    def __init__(self, lib: Library, parent: QObject | None = None, *,
                 lane: Lane | None = None) -> None:
        super().__init__(parent)
        self.lib = lib
        self.pending = lib.sync_feed.pending()
        self.timer = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self.timer.timeout.connect(self.run)
        self._own = lane is None  # alone (no window's executor): a lane of its own
        self.lane = lane or Executor().lane("syncs")
        # The round's task and the look's are over, their news posted to the UI thread.
        self._written = threading.Event()
        self._written.set()
        self._looked = threading.Event()
        self._looked.set()
        self._seen: dict[str, tuple] = {}  # path -> (stat key, SHA-256) of the last look
        self._round = False  # from run() to _done(): a write whose news is not in yet
        self._again = False  # changes came while a write ran
        self.writing: set[int] = set()
        self.closed = False
        lib.add_listener(self.hear)

    # -- hearing changes (UI thread) ---------------------------------------------------

    def hear(self, changes: Changes) -> None:
        if SYNCS in changes.kinds:
            self.listed.emit()
        if self.pending.hear(changes) and not self.closed:
            self.timer.start()  # (re)start: about a second after the last change

    def set_library(self, lib: Library) -> None:
        self.timer.stop()
        self.wait()
        if self.pending.dirty:  # the old library's last changes
            with contextlib.suppress(PaperDeskError):
                self.lib.sync_feed.catch_up(self.pending)
        self.lib.remove_listener(self.hear)
        self.lib = lib
        self.pending = lib.sync_feed.pending()
        lib.add_listener(self.hear)
        self.listed.emit()

    # -- writing (on a thread) ----------------------------------------------------------

    @property
    def busy(self) -> bool:
        """A write is under way (its outcomes have not reached the UI thread yet). Not
        whether its thread is alive: it may still be ending after sending them, and a
        write asked for then would wait for news that has already come."""
        return self._round

    @property
    def posted(self) -> bool:
        """No task of the writer is on its lane: the news of each has been posted."""
        return self._written.is_set() and self._looked.is_set()

    def run(self, only: list[int] | None = None, *, overwrite: bool = False,
            found: bool = False) -> bool:
        """Write what the pending changes concern (or the syncs ``only``, whole) on the
        thread, and those the library says are pending (``found``: even when the window
        has no change of its own waiting); False when a write is already running (this
        one follows it)."""
        if self.closed:
            return False
        if self.busy:
            self._again = True
            if only is not None:
                self._queued = (only, overwrite)
            return False
        path = self.lib.path
        recorded = self.lib.syncs.all() if only is None else None  # read once a round
        ids = [s.id for s in recorded] if recorded is not None else list(only or ())
        if only is None and (not ids or not (self.pending.dirty or found)):
            self.pending.take()
            return False
        self._round = True
        self.writing = set(ids)
        self._written.clear()
        self.started.emit(sorted(self.writing), recorded)
        pending = self.pending

        def work(lane: Lane) -> None:
            outcomes = []
            try:
                try:
                    lib = lane.library(path)
                    if only is None:
                        outcomes = lib.sync_feed.catch_up(pending, found=True, among=recorded)
                    else:
                        outcomes = [lib.syncs.write(s, overwrite=overwrite)
                                    for s in lib.syncs.all() if s.id in only]
                except PaperDeskError as exc:  # the library itself is gone or busy
                    from paperdesk.core.api import Outcome

                    lane.discard()
                    outcomes = [Outcome(i, "", "failed", str(exc)) for i in ids]
                self.finished.emit(outcomes)
            finally:  # whatever happened, nobody waits for this round any longer
                self._written.set()

        self.lane.put(work)
        return True

    def look(self, files: dict[int, str], token: object = None) -> None:
        """Hash the synced files ({id: path}) on the lane (a large file never holds up
        the window); ``looked`` brings the hashes back."""
        if self.closed or not self._looked.is_set():
            return

        seen, file_sha256 = self._seen, self.lib.syncs.file_sha256

        def hashed(path: str) -> str | None:
            # Hashed again only when the file's identity, size or time changed.
            try:
                st = os.stat(path)
                key = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
            except OSError:
                key = None
            if key is not None and seen.get(path, (None,))[0] == key:
                return seen[path][1]
            found = file_sha256(path)
            seen[path] = (key, found)
            return found

        def work(_lane: Lane) -> None:
            try:
                self.looked.emit((token, {i: hashed(p) for i, p in files.items()}))
            finally:
                self._looked.set()

        self._looked.clear()
        self.lane.put(work)

    def catch_up_found(self) -> bool:
        """Write the syncs the library says are pending, when the window has no write
        of its own under way or waiting (whose round writes them anyway)."""
        if self.closed or self.busy or self.pending.dirty or self.timer.isActive():
            return False
        return self.run(found=True)

    def write_all(self, *, overwrite: bool = False) -> bool:
        """Write every synced file now, whole."""
        return self.run([s.id for s in self.lib.syncs.all()], overwrite=overwrite)

    def _done(self) -> None:
        """Called on the UI thread after ``finished``: run again if changes came meanwhile."""
        self._round = False
        self.writing = set()
        queued, self._queued = getattr(self, "_queued", None), None
        if queued is not None:
            self.run(queued[0], overwrite=queued[1])
        elif self._again or self.pending.dirty:
            self._again = False
            if self.pending.dirty:
                self.timer.start()

    def wait(self, timeout: float = 30.0) -> None:
        """Until the round under way is written (its outcomes may still be on their way)."""
        self._written.wait(timeout)

    def close(self) -> None:
        """Finish the write under way, then write what the last changes concern
        (a file is never left half-written, nor a change left out)."""
        self.closed = True
        self.timer.stop()
        self.wait()
        self._looked.wait(30.0)
        if self.pending.dirty:
            with contextlib.suppress(PaperDeskError):
                self.lib.sync_feed.catch_up(self.pending)
        self.lib.remove_listener(self.hear)
        if self._own:
            self.lane.stop()

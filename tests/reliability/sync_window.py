"""A process that uses the library the way the window does, for the sync soak test:
a ``Library`` written to from its main thread and from extra connections (like the
worker's jobs), and the window's ``SyncWriter`` (debounced, on a thread of its own)
keeping the synced files up to date; it writes in bursts of 1.5 s with pauses of
1.5 s, so that the writer's one-second debounce runs out. It prints ``ok TOKEN``
after each write and ``sync STATE ...`` after each round of the writer; on a line
on stdin it stops, lets the writer finish and prints ``done``.

Usage: python sync_window.py LIBRARY
"""

from __future__ import annotations

import random
import sys
import threading
import time

from PySide6.QtCore import QCoreApplication, QTimer

from paperdesk.core.library import Library
from paperdesk.gui.bibtex.sync_writer import SyncWriter


def main() -> None:
    path = sys.argv[1]
    app = QCoreApplication([])
    lib = Library.open(path, create=False)
    writer = SyncWriter(lib)

    def finished(outcomes) -> None:
        writer._done()  # as the window's panel does
        for out in outcomes:
            print("sync", out.state.replace(" ", "-"), int(out.written), out.kept or "-",
                  flush=True)

    writer.finished.connect(finished)
    ids = lib.search("", sort="title").ids
    count = [0]

    started = time.monotonic()

    def write() -> None:
        if (time.monotonic() - started) % 3.0 > 1.5:
            return  # a pause: the writer's debounce runs out and it writes on its thread
        count[0] += 1
        n = count[0]
        pid = random.choice(ids)
        if n % 4 == 0:  # a job on a connection of its own, as the window's worker
            with Library.open(path, create=False) as extra:
                extra.curation.add_tags([pid], [f"w{n}"])
            lib.curation.set_rating([pid], n % 6)  # and one of its own, heard by the writer
        elif n % 2:
            lib.curation.add_tags([pid], [f"w{n}"])
        else:
            lib.curation.set_rating([pid], n % 6)
        print("ok", n, flush=True)

    timer = QTimer(interval=150)
    timer.timeout.connect(write)
    timer.start()

    asked = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.readline(), asked.set()), daemon=True).start()

    def finish() -> None:
        if not asked.is_set():
            return
        timer.stop()
        writer.close()  # the write under way ends, then the last changes are written
        lib.close()
        print("done", flush=True)
        watch.stop()
        app.quit()

    watch = QTimer(interval=100)
    watch.timeout.connect(finish)
    watch.start()
    app.exec()


if __name__ == "__main__":
    main()

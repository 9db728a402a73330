"""A process that uses the library the way the window does, for the soak test.

Its main thread writes continuously (notes and tags, each a unique token); a
reader thread reads on a connection of its own; every few writes an extra
``Library`` is opened and closed, with a write (like the worker's jobs) or
without (like the reader switching libraries). After each write that returned,
it prints ``ok KIND TOKEN``; a refused one prints ``err TOKEN message``.

Usage: python soak_window.py LIBRARY RUN-ID
"""

from __future__ import annotations

import sys
import threading
import time

from paperdesk.core.library import Library
from paperdesk.core.model.errors import PaperDeskError


def read_forever(path: str) -> None:
    lib = Library.open(path, create=False)
    while True:
        lib.search("to cite", sort="title")
        lib.stats()
        time.sleep(0.005)


def main() -> None:
    path, run = sys.argv[1], sys.argv[2]
    lib = Library.open(path, create=False)
    threading.Thread(target=read_forever, args=(path,), daemon=True).start()
    ids = lib.search("", sort="title").ids[:40]
    n = 0
    while True:
        n += 1
        token = f"{run}-{n}"
        pid = ids[n % len(ids)]
        try:
            if n % 7 == 0:  # opened and closed, nothing written: the old lock-dropping bug
                Library.open(path, create=False).close()
            if n % 5 == 0:  # a job on a connection of its own, as the window's worker
                with Library.open(path, create=False) as extra:
                    extra.curation.add_note(pid, token)
                kind = "note"
            elif n % 2:
                lib.curation.add_note(pid, token)
                kind = "note"
            else:
                lib.curation.add_tags([pid], [token])
                kind = "tag"
            print("ok", kind, token, flush=True)
        except PaperDeskError as exc:
            print("err", token, str(exc).replace("\n", " "), flush=True)
        time.sleep(0.002)


if __name__ == "__main__":
    main()

"""A process that exchanges a library with its shared folder and stops half way: after
its update file is written, before anything is committed (the test kills it there).

    python -m tests.share.exchange_child LIBRARY MARKER
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from paperdesk.core.library import Library
from paperdesk.core.share import folder


def main() -> None:
    library, marker = Path(sys.argv[1]), Path(sys.argv[2])
    real = folder.read_new

    def stalled(*args, **kwargs):
        got = real(*args, **kwargs)  # everything read, nothing applied nor committed
        marker.write_text("reading done")
        time.sleep(120)
        return got

    folder.read_new = stalled
    with Library.open(library) as lib:
        lib.share.now()


if __name__ == "__main__":
    main()

"""A process writing beside the CLI, as the window does: several connections to one
library, each writing ratings and tags through ``Library`` in turn until a stop file
appears. Every write that reported success is logged (one JSON line each, flushed
before the next write), so a test can count them afterwards.

    python -m tests.share.window_writer LIBRARY LOG STOP
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from paperdesk.core.library import Library
from paperdesk.core.model.errors import LibraryError


def main() -> None:
    library, log, stop = (Path(a) for a in sys.argv[1:4])
    libs = [Library.open(library) for _ in range(3)]
    ids = libs[0].search("", limit=100).ids
    n = 0
    with log.open("a", encoding="utf-8") as out:
        while not stop.exists() and n < 2000:
            lib = libs[n % len(libs)]
            pid = ids[n % len(ids)]
            rating = 1 + n % 5
            try:
                if n % 3 == 2:
                    lib.curation.add_tags([pid], f"w{n % 4}")
                    line = {"paper": pid, "tag": f"w{n % 4}"}
                else:
                    lib.curation.set_rating([pid], rating)
                    line = {"paper": pid, "rating": rating}
            except LibraryError:  # busy beyond its wait: not reported as done
                n += 1
                continue
            out.write(json.dumps(line) + "\n")
            out.flush()
            n += 1
    for lib in libs:
        lib.close()


if __name__ == "__main__":
    main()

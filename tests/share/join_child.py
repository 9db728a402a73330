"""A process that joins a share and stops inside one of the join's set-based blocks,
before its commit (the test kills it there with kill -9).

    python -m tests.share.join_child LIBRARY FOLDER MARKER POINT

POINT: ``papers`` (the papers written, their indexes set aside, the search triggers
off), ``sightings`` (the sightings written, their insert triggers off) or ``stored``
(the document kept in the library, all else written).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from paperdesk.core.db import digests_table, papers_table, share_table
from paperdesk.core.library import Library

WHERE = {"papers": (papers_table, "insert_shared"),
         "sightings": (digests_table, "insert_sightings"),
         "stored": (share_table, "replace_doc")}


def main() -> None:
    library, shared, marker, point = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]), \
        sys.argv[4]
    module, name = WHERE[point]
    real = getattr(module, name)

    def stalled(*args, **kwargs):
        real(*args, **kwargs)
        marker.write_text(point)
        time.sleep(120)

    setattr(module, name, stalled)
    with Library.open(library) as lib:
        lib.share.start(shared)


if __name__ == "__main__":
    main()

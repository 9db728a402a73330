"""An import reads each paper it fills once: the writer that fills it says what its
organization and year are now (they decide whether its provisional key follows)."""

from __future__ import annotations

import re
from collections import Counter

from paperdesk.core.library import Library
from tests.work import statements


def test_each_filled_paper_is_read_once(tmp_path, seeds):
    with Library.open(tmp_path / "lib.sqlite") as lib:
        lib.import_paths(seeds[:4])
        with statements(lib.db.conn) as ran:
            [report] = lib.import_paths(seeds[4:])
        assert report.status == "imported", report.error
        reads = Counter(m.group(1) for q in ran
                        if (m := re.search(r"FROM papers WHERE id = (\d+)$", q)))
        assert reads and max(reads.values()) == 1, reads.most_common(3)  # 2 before

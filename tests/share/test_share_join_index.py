"""A computer joining a share with many tagged papers: the papers' tags and notes are
written with the search index's triggers off and its rows rewritten after, in sets
(``apply.pull``); the index must then be what the triggers would have written, and
tags and notes found alike on both computers."""

from __future__ import annotations

import random

from tests.core.test_highlights_searched import rows_match_the_tables
from tests.share.sharing import digest, library, uid_ids

TAGS = [f"topic-{n:02d}" for n in range(12)]


def test_a_joining_computer_finds_every_tag_and_note_as_the_first_does(tmp_path):
    folder = tmp_path / "Sync"
    folder.mkdir()
    a, b = library(tmp_path / "a" / "a.sqlite"), library(tmp_path / "b" / "b.sqlite")
    try:
        a.import_paths([digest(tmp_path / "d", "many.txt", range(1, 321))])
        ids = list(uid_ids(a).values())
        assert len(ids) == 320  # above annotations.BULK_PAPERS: the set-based path
        rng = random.Random(3)
        for tag in TAGS:
            a.curation.add_tags(rng.sample(ids, 120), tag)
        for pid in rng.sample(ids, 40):
            a.curation.add_note(pid, f"ablation {pid % 7} compares the baseline")
        a.share.start(folder)
        b.share.start(folder)
        rows_match_the_tables(b)
        a_uid = {pid: uid for uid, pid in uid_ids(a).items()}
        b_uid = {pid: uid for uid, pid in uid_ids(b).items()}
        for query in [*(f"tag:{t}" for t in TAGS), "ablation", "note:baseline", TAGS[3]]:
            on_a = {a_uid[i] for i in a.search(query, limit=1000).ids}
            on_b = {b_uid[i] for i in b.search(query, limit=1000).ids}
            assert on_a and on_a == on_b, query
    finally:
        a.close()
        b.close()

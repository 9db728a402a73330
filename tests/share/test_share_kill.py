"""kill -9 during an exchange loses nothing: the library is as it was, and the next
exchange brings every change across."""

from __future__ import annotations

import os

from paperdesk.core.share import files
from tests.share.killing import killed_mid_exchange
from tests.share.sharing import digest, library, uid_ids, view


def test_killed_after_writing_its_update_the_next_exchange_loses_nothing(tmp_path):
    folder = tmp_path / "Sync"
    folder.mkdir()
    a, b = library(tmp_path / "a" / "a.sqlite"), library(tmp_path / "b" / "b.sqlite")
    a.import_paths([digest(tmp_path / "d")])
    a.share.start(folder)
    b.share.start(folder)
    uids = sorted(uid_ids(a))
    b.curation.set_rating([uid_ids(b)[uids[0]]], 2)
    b.share.now()  # waiting for a
    a.curation.set_rating([uid_ids(a)[uids[1]]], 5)
    a.curation.add_tags([uid_ids(a)[uids[2]]], "kept")
    before = view(a)
    files_before = set(os.listdir(folder))
    a.close()
    killed_mid_exchange(tmp_path / "a" / "a.sqlite", tmp_path / "marker")
    written = set(os.listdir(folder)) - files_before
    assert [n for n in written if n.endswith(files.UPDATE_SUFFIX)]  # its update went out
    a = library(tmp_path / "a" / "a.sqlite")
    assert view(a) == before  # b's rating not applied: nothing was committed
    a.share.now()
    b.share.now()
    a.share.now()
    assert view(a) == view(b)
    assert a.paper(uid_ids(a)[uids[0]])["rating"] == 2
    assert b.paper(uid_ids(b)[uids[1]])["rating"] == 5
    assert b.paper(uid_ids(b)[uids[2]])["tags"] == ["kept"]
    a.close()
    b.close()

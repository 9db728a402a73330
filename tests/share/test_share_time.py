"""Time and the folder: update files folded into a snapshot leave once every computer
has seen them, a computer away a month converges from the snapshot, and computers
whose clocks are a day or a month apart reach the same library as computers that
agree (``PAPERDESK_CLOCK_OFFSET`` moves a computer's clock, ``model/clock.py``)."""

from __future__ import annotations

import contextlib
import os

import pytest

from paperdesk.core.share import compaction, files
from paperdesk.core.share import folder as share_folder
from tests.share.sharing import digest, library, uid_ids, view

DAY = 86_400


@contextlib.contextmanager
def clock(seconds: float):
    """This process's clock moved by ``seconds`` inside the block."""
    before = os.environ.get("PAPERDESK_CLOCK_OFFSET")
    os.environ["PAPERDESK_CLOCK_OFFSET"] = str(seconds)
    try:
        yield
    finally:
        if before is None:
            del os.environ["PAPERDESK_CLOCK_OFFSET"]
        else:
            os.environ["PAPERDESK_CLOCK_OFFSET"] = before


def _updates(folder) -> set[str]:
    return {n for n in os.listdir(folder) if n.endswith(files.UPDATE_SUFFIX)}


def _libs(tmp_path, n: int):
    folder = tmp_path / "Sync"
    folder.mkdir()
    libs = [library(tmp_path / f"c{k}" / "lib.sqlite") for k in range(n)]
    libs[0].import_paths([digest(tmp_path / "d")])
    for lib in libs:
        lib.share.start(folder)
    for lib in libs:
        lib.share.now()
    return folder, libs


def test_folded_files_go_and_a_computer_away_a_month_reads_the_snapshot(tmp_path,
                                                                       monkeypatch):
    monkeypatch.setattr(share_folder, "SNAPSHOT_EVERY", 3)
    folder, (a, b, away) = _libs(tmp_path, 3)
    written: set[str] = set()
    uids = sorted(uid_ids(a))
    with clock(31 * DAY):  # a month later, the third computer has not come back
        for n, uid in enumerate(uids[:6]):
            lib = (a, b)[n % 2]
            lib.curation.set_rating([uid_ids(lib)[uid]], 1 + n % 5)
            lib.share.now()
            written |= _updates(folder)
            (b, a)[n % 2].share.now()
        assert [n for n in os.listdir(folder) if n.endswith(files.SNAPSHOT_SUFFIX)]
        gone = written - _updates(folder)
        assert gone  # folded into a snapshot, seen by both, removed
        seen = compaction.seen(folder)
        # some went that the computer away never read: it is away, not waited for
        assert any(name not in seen[away.share.status().device]["read"] for name in gone)
        away.share.now()  # back: it reads the snapshot
    assert view(away) == view(a) == view(b)
    assert away.paper(uid_ids(away)[uids[5]])["rating"] == 1 + 5 % 5
    for lib in (a, b, away):
        lib.close()


def test_a_computer_not_away_keeps_the_files_it_has_not_read(tmp_path, monkeypatch):
    monkeypatch.setattr(share_folder, "SNAPSHOT_EVERY", 3)
    folder, (a, b) = _libs(tmp_path, 2)
    uids = sorted(uid_ids(a))
    for n, uid in enumerate(uids[:5]):  # b is around (its seen file is a day old)
        a.curation.set_rating([uid_ids(a)[uid]], 1 + n % 5)
        a.share.now()
    kept = _updates(folder)
    assert len(kept) >= 5  # b has read none of them: none goes
    b.share.now()
    a.share.now()
    assert _updates(folder) < kept  # now both have: the folded ones go
    assert view(a) == view(b)
    a.close()
    b.close()


def _outcome(lib) -> tuple:
    """What the edits decided, without the stamps each computer's clock wrote."""
    papers = {}
    for uid, p in view(lib)["papers"].items():
        notes = tuple(text for text, _created, _updated in p["notes"])  # times: the clocks'
        papers[uid] = (p["rating"], p["status"], tuple(p["tags"]), notes,
                       bool(p["deleted"]), p["citekey"])
    return papers, tuple(view(lib)["queue"])


def _run(tmp_path, offsets: tuple[float, float]) -> tuple:
    folder = tmp_path / "Sync"
    folder.mkdir(parents=True)
    a, b = library(tmp_path / "a" / "a.sqlite"), library(tmp_path / "b" / "b.sqlite")
    one, two = (lambda: clock(offsets[0])), (lambda: clock(offsets[1]))
    with one():
        a.import_paths([digest(tmp_path / "d")])
        a.share.start(folder)
    with two():
        b.share.start(folder)
    u = sorted(uid_ids(a))
    ia, ib = uid_ids(a), uid_ids(b)
    with one():
        a.curation.set_rating([ia[u[0]]], 3)
        a.curation.add_tags([ia[u[1]]], "ml")
        a.share.now()
    with two():  # later in fact, earlier by its clock: it still wins
        b.share.now()
        b.curation.set_rating([ib[u[0]]], 5)
        b.curation.set_status([ib[u[2]], ib[u[3]], ib[u[4]]], "to-read")
        b.curation.add_note(ib[u[5]], "compare with table 2")
        b.share.now()
    with one():
        a.share.now()
        a.queue.move_to([ia[u[4]]], 0)
        a.trash.delete([ia[u[6]]])
        a.curation.remove_tags([ia[u[1]]], "ml")
        a.share.now()
    with two():
        b.curation.add_tags([ib[u[1]]], "nlp")
        b.share.now()
    for _ in range(2):
        with one():
            a.share.now()
        with two():
            b.share.now()
    outcome = _outcome(a)
    assert outcome == _outcome(b)
    a.close()
    b.close()
    return outcome


@pytest.mark.parametrize("apart", [DAY, 30 * DAY])
def test_clocks_apart_change_no_outcome(tmp_path, apart):
    agreed = _run(tmp_path / "agreed", (0, 0))
    ahead = _run(tmp_path / "ahead", (apart, -apart))
    behind = _run(tmp_path / "behind", (-apart, apart))
    assert agreed == ahead == behind
    papers, queue = agreed
    assert sorted(p[0] for p in papers.values())[-1] == 5  # the later rating won
    assert ("nlp",) in [p[2] for p in papers.values()]
    assert len(queue) == 3


def test_a_computer_exchanging_in_a_quiet_folder_says_so_now_and_then(tmp_path):
    """Its seen file is written again when its stamp grows old, though it read nothing
    new: otherwise after 30 quiet days it looks away, and the files it still has to
    read could be removed."""
    read = {"A-1.pdupdate": "x"}
    assert compaction.write_seen(tmp_path, "B", read, "2026-11-01T00:00:00+00:00")
    assert not compaction.write_seen(tmp_path, "B", read, "2026-11-02T00:00:00+00:00")
    assert compaction.write_seen(tmp_path, "B", read, "2026-11-05T00:00:00+00:00")
    assert compaction.seen(tmp_path)["B"]["stamp"] == "2026-11-05T00:00:00+00:00"

"""What the synced files have yet to catch up with is the library's to say: the write
that commits a change records it in its own transaction, so a change whose program
stopped before it wrote the files is pending (and shown so), the next writer makes
again the entries of every paper changed since the file was written (seen by it or
not), and the record shrinks back once every file has caught up."""

from __future__ import annotations

from paperdesk.core.db import sync_changes
from paperdesk.core.library import Library
from paperdesk.core.sync.sync_feed import Pending, catch_up
from paperdesk.core.sync.syncs import CONFLICT, OK, PENDING


def _rows(lib) -> int:
    return lib.db.execute("SELECT count(*) FROM sync_changes").fetchone()[0]


def test_a_writer_told_of_one_change_makes_again_those_it_never_saw(seed_lib, tmp_path):
    """The file is written, then a program commits a change and stops before writing it
    (here: a change no listener hears); the next write, told only of its own change,
    still makes the other paper's entry again instead of reusing the stale one."""
    path = tmp_path / "refs.bib"
    seed_lib.syncs.write(seed_lib.syncs.add(path))
    with Library.open(seed_lib.path, create=False) as other:  # another program, then gone
        other.curation.add_tags([1], ["unseen-change"])
    seed_lib.curation.add_tags([2], ["seen-change"])
    out = seed_lib.syncs.write(seed_lib.syncs.get(path), changed={2})
    assert out.state == OK and out.written
    text = path.read_text(encoding="utf-8")
    assert "unseen-change" in text and "seen-change" in text
    assert text == seed_lib.bibtex.export()


def test_a_change_not_written_is_pending_until_a_write_catches_up(seed_lib, tmp_path):
    path = tmp_path / "refs.bib"
    seed_lib.syncs.write(seed_lib.syncs.add(path))
    assert seed_lib.syncs.on_disk(seed_lib.syncs.get(path)).state == OK
    seed_lib.curation.add_tags([3], ["pending-tag"])  # committed; nobody writes the file
    sync = seed_lib.syncs.get(path)
    shown = seed_lib.syncs.on_disk(sync)
    assert sync.behind and shown.state == PENDING and "up to date" not in shown.state_text()
    assert [s.id for s in seed_lib.syncs.behind()] == [sync.id]
    # Whoever opens the library next and looks for pending syncs writes it.
    outcomes = catch_up(seed_lib, Pending(), found=True)
    assert [(o.state, o.written) for o in outcomes] == [(OK, True)]
    assert seed_lib.syncs.on_disk(seed_lib.syncs.get(path)).state == OK
    assert not seed_lib.syncs.behind()
    assert "pending-tag" in path.read_text(encoding="utf-8")
    assert path.read_text(encoding="utf-8") == seed_lib.bibtex.export()


def test_a_change_no_file_shows_leaves_nothing_pending(seed_lib, tmp_path):
    """A sync's own record (its state, the keys it froze) is no change the files lack."""
    path = tmp_path / "refs.bib"
    seed_lib.syncs.write(seed_lib.syncs.add(path))
    seed_lib.syncs.add(tmp_path / "other.bib")
    seed_lib.syncs.write(seed_lib.syncs.get(tmp_path / "other.bib"))
    assert not seed_lib.syncs.get(path).behind and not seed_lib.syncs.behind()


def test_the_record_is_kept_only_while_a_file_lacks_it(seed_lib, tmp_path):
    assert _rows(seed_lib) == 0  # no sync: nothing is recorded
    seed_lib.curation.add_tags([1], ["before-any-sync"])
    assert _rows(seed_lib) == 0
    first, second = tmp_path / "a.bib", tmp_path / "b.bib"
    seed_lib.syncs.write(seed_lib.syncs.add(first))
    seed_lib.syncs.write(seed_lib.syncs.add(second))
    for n in range(4):
        seed_lib.curation.add_tags([n + 1], [f"t{n}"])
    assert _rows(seed_lib) == 4
    seed_lib.syncs.write(seed_lib.syncs.get(first), changed=set())
    assert _rows(seed_lib) == 4  # the second file still lacks them
    seed_lib.syncs.write(seed_lib.syncs.get(second), changed=set())
    assert _rows(seed_lib) == 1  # the newest stays: it holds the generation
    assert not seed_lib.syncs.behind()
    seed_lib.curation.add_tags([9], ["later"])
    assert [s.path for s in seed_lib.syncs.behind()] == [str(first), str(second)]
    assert first.read_text(encoding="utf-8") == second.read_text(encoding="utf-8")


def test_a_rolled_back_write_records_nothing(seed_lib, tmp_path):
    seed_lib.syncs.write(seed_lib.syncs.add(tmp_path / "refs.bib"))
    before = sync_changes.generation(seed_lib.db)
    try:
        with seed_lib.write("fails", ["tags"], [1]):
            seed_lib.db.execute("UPDATE papers SET rating = 2 WHERE id = 1")
            raise RuntimeError("stopped")
    except RuntimeError:
        pass
    assert sync_changes.generation(seed_lib.db) == before
    seed_lib.curation.set_rating([1], 2)
    assert sync_changes.generation(seed_lib.db) == before + 1


def test_a_stopped_sync_is_not_written_by_a_catch_up(seed_lib, tmp_path):
    path = tmp_path / "refs.bib"
    seed_lib.syncs.write(seed_lib.syncs.add(path))
    mine = b"% my own edit\n" + path.read_bytes()
    path.write_bytes(mine)
    seed_lib.curation.add_tags([1], ["x"])
    assert seed_lib.syncs.write(seed_lib.syncs.get(path)).state == CONFLICT
    seed_lib.curation.add_tags([2], ["y"])
    assert catch_up(seed_lib, Pending(), found=True) == []
    assert path.read_bytes() == mine


def test_a_sync_stopped_for_good_does_not_grow_the_record_without_end(seed_lib, tmp_path,
                                                                      monkeypatch):
    """Behind by more than ``MOST_ROWS`` changes, a sync's next write makes every entry
    again (its rows are gone), and the record stays bounded meanwhile."""
    monkeypatch.setattr(sync_changes, "MOST_ROWS", 5)
    monkeypatch.setattr(sync_changes, "PRUNE_EVERY", 3)
    path = tmp_path / "refs.bib"
    seed_lib.syncs.write(seed_lib.syncs.add(path))
    for n in range(12):  # no write of the file: it falls behind
        seed_lib.curation.add_tags([n % 4 + 1], [f"t{n}"])
    assert _rows(seed_lib) <= 5 + 3
    sync = seed_lib.syncs.get(path)
    assert sync_changes.changed_since(seed_lib.db, sync.generation,
                                      sync_changes.generation(seed_lib.db)) is None
    seed_lib.syncs.write(sync, changed=set())
    assert path.read_text(encoding="utf-8") == seed_lib.bibtex.export()

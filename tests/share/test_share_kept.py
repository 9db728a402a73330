"""The shared document kept between one program's exchanges (``core/share/kept.py``):
loaded from the library once, used again while the library's stored document is the
one it kept, loaded again when another program, an older PaperDesk or a failed
exchange changed it; what the record kinds held is read again only where it can have
changed (``records.Known``)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from paperdesk.core.db import changes as ch
from paperdesk.core.db import store
from paperdesk.core.library import Library
from paperdesk.core.share import compaction, folder, library_state, partial, records
from tests.share.sharing import digest, exchange, pair, uid_ids, view


@pytest.fixture
def two(tmp_path):
    with pair(tmp_path, papers=True, started=True) as libraries:
        yield libraries


def test_a_program_exchanging_again_loads_the_document_once(two):
    a, b, _ = two
    exchange(a, b)
    loads = b.share.kept.loads
    ids = uid_ids(a)
    for rating in (2, 3, 4):
        a.curation.set_rating([next(iter(ids.values()))], rating)
        a.share.now()
        b.share.now()
    assert b.share.kept.loads == loads  # three exchanges, no load
    assert view(a) == view(b)


def test_another_programs_exchange_makes_the_kept_document_load_again(two, tmp_path):
    a, b, _ = two
    exchange(a, b)
    other = Library.open(b.path)  # a second program on b's library: the CLI beside a window
    try:
        a.curation.add_tags([next(iter(uid_ids(a).values()))], "seen-by-the-other")
        a.share.now()
        other.share.now()  # stores a document b's program did not keep
        loads = b.share.kept.loads
        b.curation.set_rating([next(iter(uid_ids(b).values()))], 5)
        b.share.now()
        assert b.share.kept.loads == loads + 1
        exchange(a, b)
        assert view(a) == view(b)
        assert "seen-by-the-other" in {t["name"] for t in b.curation.tags()}
    finally:
        other.close()


def test_a_document_an_older_paperdesk_stored_is_loaded_again(two):
    """An older PaperDesk writes no mark: the parts it stored differ from those kept."""
    a, b, _ = two
    exchange(a, b)
    mark = b.db.execute("SELECT value FROM share_state WHERE key = 'doc_mark'").fetchone()[0]
    other = Library.open(b.path)
    try:
        a.curation.set_rating([next(iter(uid_ids(a).values()))], 1)
        a.share.now()
        other.share.now()
        with other.db.conn:  # as an older program leaves it: the parts changed, the mark not
            other.db.execute("UPDATE share_state SET value = ? WHERE key = 'doc_mark'", [mark])
    finally:
        other.close()
    loads = b.share.kept.loads
    b.share.now()
    assert b.share.kept.loads == loads + 1
    exchange(a, b)
    assert view(a) == view(b)


def test_a_failed_exchange_leaves_no_kept_document(two, monkeypatch):
    a, b, _ = two
    exchange(a, b)
    a.curation.set_rating([next(iter(uid_ids(a).values()))], 4)
    a.share.now()
    real = folder.read_new

    def broken(*args, **kwargs):
        raise OSError("the folder went away")

    monkeypatch.setattr(folder, "read_new", broken)
    with pytest.raises(OSError):
        b.share.now()  # its push was written into the kept document, then rolled back
    monkeypatch.setattr(folder, "read_new", real)
    loads = b.share.kept.loads
    b.share.now()
    assert b.share.kept.loads == loads + 1
    exchange(a, b)
    assert view(a) == view(b)


def test_record_kinds_are_read_from_the_document_only_where_they_changed(two, monkeypatch):
    a, b, _ = two
    exchange(a, b)
    read: list[str] = []
    real = records.in_document

    def counted(doc, name):
        read.append(name)
        return real(doc, name)

    monkeypatch.setattr(records, "in_document", counted)
    a.curation.set_rating([next(iter(uid_ids(a).values()))], 2)
    a.share.now()
    read.clear()
    b.share.now()  # a rating: no record kind changed
    assert read == []
    a.curation.save_search("good ones", "rating:2")
    a.share.now()
    read.clear()
    b.share.now()
    assert read == ["searches"]  # the one kind the import changed
    assert [s["name"] for s in b.curation.saved_searches()] == ["good ones"]
    b.curation.save_search("mine", "tag:x")
    read.clear()
    b.share.now()  # pushed from what the last exchange left: nothing read
    assert read == []
    a.share.now()
    assert {s["name"] for s in a.curation.saved_searches()} == {"good ones", "mine"}


def _counting(monkeypatch, name: str) -> list[int]:
    """Counts the library reads of the record kind ``name``."""
    calls: list[int] = []
    kinds = []
    for kind in records.KINDS:
        if kind.name == name:
            real = kind.read

            def read(db, ids, real=real):
                calls.append(1)
                return real(db, ids)

            kind = dataclasses.replace(kind, read=read)
        kinds.append(kind)
    monkeypatch.setattr(records, "KINDS", tuple(kinds))
    return calls


def test_digests_are_read_from_the_library_only_after_a_write_of_them(two, tmp_path,
                                                                       monkeypatch):
    """Every write of digests or sightings is recorded as a change of any paper, so an
    exchange after writes that named their papers (a rating) leaves them unread; an
    import is read and travels."""
    a, b, _ = two
    exchange(a, b)
    calls = _counting(monkeypatch, "digests")
    a.curation.set_rating([next(iter(uid_ids(a).values()))], 3)
    a.share.now()
    assert calls == []
    a.import_paths([digest(tmp_path / "later", "later.txt", range(20, 24))])
    a.share.now()
    assert calls == [1]
    exchange(a, b)
    assert view(a) == view(b)
    assert len(b.search("", limit=100).ids) == len(a.search("", limit=100).ids)
    assert {d["name"] for d in b.digests()} == {d["name"] for d in a.digests()}


@pytest.mark.parametrize("seed", range(5))
def test_a_few_keys_are_looked_up_as_the_whole_pass_finds_them(tmp_path, seed):
    """``partial._held`` looks a few keys up in the index; the pass over every key
    (more than MOST_LOOKED_UP) gives the same answer."""
    rng = random.Random(seed)
    lib = Library.open(tmp_path / "keys.sqlite")
    try:
        lib.import_paths([digest(tmp_path / "d", "keys.txt", range(1, 30))])
        ids = lib.search("", limit=100).ids
        stems = ["smith2024", "lee2025deep", "o'hara1999"]
        with lib.db.conn:  # keys shaped as an exchange shows them: KEY and KEY-abcd
            given: set[str] = set()
            for n, pid in enumerate(ids):
                key = stems[n] if n < 3 else f"{rng.choice(stems)}-{rng.randrange(16**4):04x}"
                key = f"solo{n}" if n >= 3 and rng.random() < 0.5 else key
                key = key.upper() if rng.random() < 0.3 else key
                if key not in given:
                    given.add(key)
                    lib.db.execute("UPDATE papers SET citekey = ? WHERE id = ?", [key, pid])
        answers = set()
        for _ in range(40):
            chosen = rng.sample(ids, rng.randint(1, 2))
            local = library_state.read(lib.db, "dev", set(chosen))
            state = library_state.State(papers=dict(local.papers))
            looked_up = partial._held(lib.db, state, local)
            answers.add(looked_up)
            saved = partial.MOST_LOOKED_UP
            partial.MOST_LOOKED_UP = -1
            try:
                assert partial._held(lib.db, state, local) == looked_up
            finally:
                partial.MOST_LOOKED_UP = saved
        assert answers == {True, False}
    finally:
        lib.close()


def test_an_edit_after_an_exchange_that_failed_beats_that_exchanges_file(two, monkeypatch):
    """An exchange that fails after writing its update file leaves the file in the
    folder, holding values the library has since changed again. The next exchange's
    changes must come after that file's, not tie with them: the library's later
    values win on both computers, each time (the tie went either way)."""
    a, b, _ = two
    exchange(a, b)
    real = folder.read_new
    for n, pid in enumerate(list(uid_ids(a).values())[:8]):
        a.curation.set_rating([pid], 4)

        def broken(*args, **kwargs):
            raise OSError("killed")

        monkeypatch.setattr(folder, "read_new", broken)
        with pytest.raises(OSError):
            a.share.now()  # its file, rating 4, is in the folder; the library rolled back
        monkeypatch.setattr(folder, "read_new", real)
        a.curation.set_rating([pid], 2)
        exchange(a, b)
        assert a.paper(pid)["rating"] == 2, n
        assert b.paper(uid_ids(b)[a.paper(pid)["uid"]])["rating"] == 2, n
    assert view(a) == view(b)


def test_a_library_put_back_from_a_backup_keeps_the_edits_made_after_it(two, tmp_path):
    """Its own update files written after the backup are not in what the put-back
    library has read, as a failed exchange's are not; but a committed exchange listed
    them in its seen file, so they are read as the others' are, after this exchange's
    own: the later search and rating come back, on both computers."""
    a, b, _ = two
    exchange(a, b)
    backup = a.backup(tmp_path / "a-backup.sqlite")
    pid = next(iter(uid_ids(a).values()))
    uid = a.paper(pid)["uid"]
    a.curation.save_search("later", "rating:5")
    a.curation.set_rating([pid], 5)
    exchange(a, b)
    assert "later" in {s["name"] for s in b.curation.saved_searches()}
    path = a.path
    a.close()
    store.restore(backup, path)
    again = Library.open(path)
    try:
        assert again.paper(pid)["rating"] != 5  # as the backup held it
        exchange(again, b)
        for lib in (again, b):
            assert "later" in {s["name"] for s in lib.curation.saved_searches()}
            assert lib.paper(uid_ids(lib)[uid])["rating"] == 5
        assert view(again) == view(b)
    finally:
        again.close()


def test_undoing_a_change_of_sightings_is_a_change_of_digests():
    """The digests' record kind is left unread when every write since named its papers
    (``records._signalled``); an undo of sightings alone must not be such a write."""
    image = ch.Image(ch.Scope("sightings", "paper_id", (1,)), [{"paper_id": 1, "id": 5}], [])
    kinds, papers = ch.affected(ch.Undo("Shared changes", [image]))
    assert ch.DIGESTS in kinds and papers == {1}


def test_a_seen_file_that_cannot_be_written_after_the_commit_fails_nothing(two,
                                                                           monkeypatch):
    """The seen file is written once the exchange committed; a full disk there leaves
    the exchange done (its changes are in the library) and the next one writes it."""
    a, b, folder_path = two
    exchange(a, b)
    pid = next(iter(uid_ids(a).values()))
    a.curation.set_rating([pid], 5)
    a.share.now()
    real = compaction.write_seen

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(compaction, "write_seen", full)
    b.share.now()
    assert b.paper(uid_ids(b)[a.paper(pid)["uid"]])["rating"] == 5
    monkeypatch.setattr(compaction, "write_seen", real)
    device = b.share.status().device
    seen = folder_path / f"{device}{compaction.SEEN_SUFFIX}"
    before = seen.read_bytes()
    a.curation.set_rating([pid], 4)
    a.share.now()
    b.share.now()
    assert seen.read_bytes() != before  # the files read since are listed now

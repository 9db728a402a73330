"""The shared document kept between one program's exchanges (``core/share/kept.py``):
loaded from the library once, used again while the library's stored document is the
one it kept, loaded again when another program, an older PaperDesk or a failed
exchange changed it; what the record kinds held is read again only where it can have
changed (``records.Known``)."""

from __future__ import annotations

import pytest

from paperdesk.core.library import Library
from paperdesk.core.share import folder, records
from tests.share.sharing import exchange, pair, uid_ids, view


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

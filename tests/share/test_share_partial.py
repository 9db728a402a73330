"""An exchange reads only the papers that changed on either side, and reads
everything where a rule of the document reads across papers; both give one library."""

from __future__ import annotations

from paperdesk.core.share import library_state, partial
from tests.command_line import paperdesk_process
from tests.share.sharing import digest, library, uid_ids, view


def _counting(monkeypatch) -> list[int | None]:
    """How many papers each read of the library asked for (None: all of them)."""
    asked: list[int | None] = []
    real = library_state.read

    def counted(db, device, only=None):
        asked.append(None if only is None else len(only))
        return real(db, device, only)

    monkeypatch.setattr(library_state, "read", counted)
    monkeypatch.setattr(partial, "read", counted)
    return asked


def _pair(tmp_path):
    folder = tmp_path / "Sync"
    folder.mkdir()
    a, b = library(tmp_path / "a" / "a.sqlite"), library(tmp_path / "b" / "b.sqlite")
    a.import_paths([digest(tmp_path / "d")])
    a.share.start(folder)
    b.share.start(folder)
    a.share.now()
    return a, b


def test_a_rating_is_one_paper_read_on_each_side(tmp_path, monkeypatch):
    a, b = _pair(tmp_path)
    uid = sorted(uid_ids(a))[3]
    b.curation.set_rating([uid_ids(b)[uid]], 5)
    asked = _counting(monkeypatch)
    b.share.now()
    assert asked == [1]  # the rated paper, nothing else
    asked.clear()
    a.share.now()
    assert asked == [0, 1]  # nothing changed here; the paper the update touched
    assert a.paper(uid_ids(a)[uid])["rating"] == 5
    a.share.now()
    b.share.now()
    assert view(a) == view(b)
    a.close()
    b.close()


def test_a_change_another_program_made_is_read_too(tmp_path, monkeypatch):
    a, b = _pair(tmp_path)
    uid = sorted(uid_ids(a))[1]
    pid = uid_ids(b)[uid]
    paperdesk_process("--library", tmp_path / "b" / "b.sqlite", "tag", str(pid), "+late",
                      check_rc=0)
    asked = _counting(monkeypatch)
    b.share.now()
    assert asked == [1]
    a.share.now()
    assert a.paper(uid_ids(a)[uid])["tags"] == ["late"]
    a.close()
    b.close()


def test_an_emptied_trash_reads_everything_and_the_libraries_agree(tmp_path, monkeypatch):
    a, b = _pair(tmp_path)
    uid = sorted(uid_ids(a))[0]
    b.trash.delete([uid_ids(b)[uid]])
    b.trash.empty()
    asked = _counting(monkeypatch)
    b.share.now()
    assert None in asked  # a paper gone from the library: the whole of it read
    a.share.now()
    assert uid not in uid_ids(a)
    assert view(a) == view(b)
    a.close()
    b.close()


def test_a_key_another_paper_holds_reads_everything(tmp_path, monkeypatch):
    a, b = _pair(tmp_path)
    first, second = sorted(uid_ids(a))[:2]
    a.bibtex.set_citekey(uid_ids(a)[second], "shared2024")
    b.bibtex.set_citekey(uid_ids(b)[first], "shared2024")
    a.share.now()
    b.share.now()  # both papers read here: one changed, one arriving
    asked = _counting(monkeypatch)
    a.share.now()  # the key arriving is the key of a paper this exchange does not read
    assert None in asked
    b.share.now()
    assert view(a) == view(b)
    keys = [p["citekey"] for p in view(a)["papers"].values() if p["citekey"]]
    assert len({k.lower() for k in keys}) == len(keys)
    assert "shared2024" in keys
    a.close()
    b.close()

"""An exchange reads only the papers that changed on either side, and reads
everything where a rule of the document reads across papers; both give one library."""

from __future__ import annotations

import contextlib
import os
import random

import pytest

from paperdesk.core.model.errors import CitekeyError, DuplicateError, NotFound
from paperdesk.core.share import library_state, partial
from tests.command_line import paperdesk_process
from tests.pdf_files import pdf_bytes
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


def _pdfs(lib) -> list[tuple[str, str, list[str]]]:
    """(paper's stable id, file's SHA-256, its highlights' comments) of each attachment."""
    out = []
    for uid, pid in uid_ids(lib).items():
        for row in lib.pdf.of_paper(pid):
            comments = sorted(h["comment"] for h in lib.highlights.of_attachment(row["id"]))
            out.append((uid, row["sha256"], comments))
    return sorted(out)


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


def test_after_a_merge_an_edit_elsewhere_reads_one_paper_and_one_the_merge_holds_all(
        tmp_path, monkeypatch):
    """A merge's marks stay in the document for good; they fold tags and notes across
    the papers they hold, and only those: an edit of another paper reads that paper."""
    a, b = _pair(tmp_path)
    kept, gone, other = sorted(uid_ids(a))[:3]
    a.duplicates.merge(uid_ids(a)[kept], [uid_ids(a)[gone]])
    a.share.now()
    b.share.now()
    assert gone not in uid_ids(b)
    asked = _counting(monkeypatch)
    b.curation.set_rating([uid_ids(b)[other]], 4)
    b.share.now()
    assert asked == [1]
    asked.clear()
    a.share.now()
    assert asked == [0, 1] and a.paper(uid_ids(a)[other])["rating"] == 4
    asked.clear()
    b.curation.set_rating([uid_ids(b)[kept]], 2)  # the kept paper: its merge folds
    b.share.now()
    assert None in asked
    asked.clear()
    a.share.now()
    assert None in asked and a.paper(uid_ids(a)[kept])["rating"] == 2
    asked.clear()
    a.duplicates.unmerge(a.duplicates.latest_merge_of(uid_ids(a)[kept]))
    a.share.now()
    asked.clear()
    b.share.now()  # an unmerge arriving: the marks changed, everything read
    assert None in asked and gone in uid_ids(b)
    assert view(a) == view(b)
    a.close()
    b.close()


def test_beside_two_papers_keeping_one_key_an_edit_reads_one_paper_and_they_are_told(
        tmp_path, monkeypatch):
    a, b = _pair(tmp_path)
    one, two_, other = sorted(uid_ids(a))[:3]
    for lib, uid in ((a, one), (b, two_)):
        lib.bibtex.set_citekey(uid_ids(lib)[uid], "smith2025")
        lib.bibtex.export_to(tmp_path / f"{uid}.bib", [uid_ids(lib)[uid]])  # it leaves
    a.share.now()
    b.share.now()
    a.share.now()
    told = b.share.status().conflicted
    assert len(told) == 1 and "smith2025" in told[0]
    asked = _counting(monkeypatch)
    a.curation.set_rating([uid_ids(a)[other]], 3)
    a.share.now()
    assert asked == [1]
    asked.clear()
    result = b.share.now().result
    assert asked == [0, 1]
    assert b.share.status().conflicted == told  # still told, after an exchange of one
    assert len(result.conflicts) == 1
    assert b.paper(uid_ids(b)[other])["rating"] == 3
    for lib in (a, b):
        keys = [lib.paper(uid_ids(lib)[u])["citekey"] for u in (one, two_)]
        assert keys == ["smith2025", "smith2025"]
    assert view(a) == view(b)
    a.close()
    b.close()


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(int(os.environ.get("SHARE_EXAMPLES", "30"))))
def test_random_edits_beside_merges_and_kept_keys_end_in_one_library(tmp_path, seed):
    """Ratings, tags, notes, keys cited, merges, unmerges, PDFs and highlights on three
    computers, each exchange partial where it can be; at the end the three libraries
    and a fourth computer joining (which reads the whole document) hold the same papers."""
    rng = random.Random(seed)
    a, b = _pair(tmp_path)
    third = library(tmp_path / "t" / "t.sqlite")  # a third computer in it from the start
    third.share.start(tmp_path / "Sync")
    libs = (a, b, third)
    b.share.now()
    files = []
    for n in range(2):  # two files: one may be on two papers, which a merge makes one
        files.append(tmp_path / f"f{n}.pdf")
        files[-1].write_bytes(pdf_bytes([[f"file {n}"]]))
    for step in range(40):
        lib = rng.choice(libs)
        ids = uid_ids(lib)
        live = sorted(ids)
        uid = rng.choice(live)
        pid = ids[uid]
        what = rng.choice(("rate", "rate", "tag", "note", "cite", "merge", "unmerge",
                           "exchange", "exchange", "pdf"))
        if what == "rate":
            lib.curation.set_rating([pid], rng.randint(0, 5))
        elif what == "tag":
            lib.curation.add_tags([pid], rng.choice(("ml", "nlp")))
        elif what == "note":
            lib.curation.add_note(pid, f"note {rng.randint(0, 9)}")
        elif what == "cite" and not lib.bibtex.key_status(pid)["frozen"]:
            with contextlib.suppress(CitekeyError):
                lib.bibtex.set_citekey(pid, rng.choice(("smith2025", "lee2024")))
                lib.bibtex.freeze([pid])
        elif what == "merge" and len(live) > 3:
            other = rng.choice([u for u in live if u != uid])
            with contextlib.suppress(DuplicateError):
                lib.duplicates.merge(pid, [ids[other]])
        elif what == "unmerge":  # a merge made here, or one the shared library holds
            undoable = [m for m in lib.duplicates.history() if not m["undone"]]
            with contextlib.suppress(DuplicateError, NotFound):
                if undoable and rng.random() < 0.5:
                    lib.duplicates.unmerge(undoable[0]["id"])
                else:
                    lib.share.unmerge(pid)
        elif what == "exchange":
            lib.share.now()
        elif what == "pdf":  # attach one of the files (once a paper) and highlight it
            attached = lib.pdf.attach(pid, rng.choice(files)).result.attachment_id
            # a highlight's id is made of its file, page, place and time: one place each
            y = 15 * step + rng.randint(0, 9)
            lib.highlights.add(attached, 0, [[10, y, 90, y, 10, y + 10, 90, y + 10]], "file",
                               comment=f"h{y}")
    for lib in (*libs, *libs):
        lib.share.now()
    joined = library(tmp_path / "c" / "c.sqlite")
    joined.share.start(tmp_path / "Sync")
    assert view(a) == view(b) == view(third) == view(joined)
    assert _pdfs(a) == _pdfs(b) == _pdfs(third) == _pdfs(joined)
    for lib in (*libs, joined):
        lib.close()

"""Three real libraries sharing one folder, each editing every kind of record that
travels beside the papers; after a full exchange the three read alike."""

from __future__ import annotations

from paperdesk.core.library import Library
from tests.pdf_files import pdf_bytes
from tests.share.sharing import digest, library, uid_ids, view


def records(lib: Library) -> dict:
    """The records of ``lib`` by stable id, without local ids or paths."""
    uids = {i: u for u, i in uid_ids(lib).items()}
    pdfs = sorted((uids[r["paper_id"]], r["sha256"], r["name"], r["state"])
                  for r in lib.pdf.listing(""))
    highlights = sorted((h["text"], h["comment"], h["colour"], h["created_at"])
                        for i in uids for h in lib.highlights.of_paper(i))
    digests = sorted((d["name"], d["digest_date"], d["entries"]) for d in lib.digests())
    different = sorted(tuple(sorted((uids[x], uids[y]))) for x, y in lib.db.execute(
        "SELECT paper_a, paper_b FROM not_duplicates"))
    return {"searches": lib.curation.saved_searches(), "pdfs": pdfs,
            "highlights": highlights, "digests": digests, "different": different}


def test_three_computers_meet_on_every_record_kind(tmp_path):
    folder = tmp_path / "Sync"
    folder.mkdir()
    libs = [library(tmp_path / f"l{n}" / "lib.sqlite") for n in range(3)]
    libs[0].import_paths([digest(tmp_path / "d", papers=range(1, 6))])
    libs[1].import_paths([digest(tmp_path / "e", "other.txt", papers=range(4, 9))])
    for lib in libs:
        lib.share.start(folder, with_files=True)
    for lib in (*libs, *libs):
        lib.share.now()
    uids = sorted(uid_ids(libs[0]))
    first, second, third = libs
    first.curation.save_search("Mine", "rating>=4")
    second.curation.save_search("Mine", "rating>=3")  # the same name: one query wins
    source = tmp_path / "p.pdf"
    source.write_bytes(pdf_bytes([["a page"]]))
    att = second.pdf.attach(uid_ids(second)[uids[0]], source).result.attachment_id
    second.highlights.add(att, 0, [[1, 1, 9, 1, 1, 5, 9, 5]], "a page", comment="why")
    third.duplicates.mark_different([uid_ids(third)[u] for u in uids[1:3]])
    third.curation.add_note(uid_ids(third)[uids[3]], "from the third")
    for lib in (*libs, *libs):
        lib.share.now()
    assert records(first) == records(second) == records(third)
    assert view(first) == view(second) == view(third)
    got = records(third)
    assert [s["name"] for s in got["searches"]] == ["Mine"]
    assert [p[3] for p in got["pdfs"]] == ["ok"]  # the file came with --with-files
    assert [h[1] for h in got["highlights"]] == ["why"]
    assert len(got["digests"]) == 2 and got["different"] == [tuple(uids[1:3])]
    for lib in libs:
        lib.close()

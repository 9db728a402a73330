"""Provisional keys follow the metadata until they leave PaperDesk; then they are frozen."""

from __future__ import annotations

import shutil
from pathlib import Path

from paperdesk.core.bibtex.citekey import base_key, freeze, key_status, refresh
from paperdesk.core.library import Library
from tests.conftest import SEED_PAPERS

DATA = Path(__file__).resolve().parent.parent / "data"


def _key(lib, pid):
    return lib.db.execute("SELECT citekey FROM papers WHERE id = ?", [pid]).fetchone()[0]


def _inferred(lib):
    return lib.db.execute("SELECT id, year FROM papers WHERE year_inferred = 1 AND "
                          "organization IS NULL ORDER BY id LIMIT 1").fetchone()


def test_pattern_is_name_year_and_first_significant_title_word():
    paper = {"authors": ["Jürgen Müller", "Ada Lovelace"], "year": 2024,
             "title": "Scaling the Unscalable"}
    assert base_key(paper) == "mueller2024scaling"
    assert base_key(paper, with_title=False) == "mueller2024"
    assert base_key({"authors": ["Niamh Ó Briain"], "year": 2023,
                     "title": "Über Turns"}) == "obriain2023ueber"
    assert base_key({"authors": ["Jan van der Berg"], "year": 2022,
                     "title": "A Study"}) == "berg2022study"
    assert base_key({"organization": "DeepSeek", "year": 2025,
                     "title": "DeepSeek-OCR"}) == "deepseek2025deepseek"


def test_new_digest_keys_are_provisional_and_follow_a_year_correction(seed_lib):
    pid, year = _inferred(seed_lib)
    old = _key(seed_lib, pid)
    assert key_status(seed_lib, pid)["state"] == "provisional"
    changes = seed_lib.curation.set_year(pid, year - 1)
    new = _key(seed_lib, pid)
    assert new != old and str(year - 1) in new and str(year) not in new
    assert changes.result["rekeyed"] == {pid: (old, new)}
    seed_lib.undo(changes.undo)
    assert _key(seed_lib, pid) == old
    seed_lib.redo(changes.undo)
    assert _key(seed_lib, pid) == new


def test_an_exported_key_is_frozen_and_never_follows_again(seed_lib, tmp_path):
    pid, year = _inferred(seed_lib)
    first = seed_lib.curation.set_year(pid, year - 1)
    exported = _key(seed_lib, pid)
    seed_lib.bibtex.export_to(tmp_path / "out.bib", [pid])
    assert key_status(seed_lib, pid) == {"id": pid, "citekey": exported, "frozen": True,
                                         "state": "frozen"}
    seed_lib.curation.set_year(pid, year - 2)
    assert _key(seed_lib, pid) == exported
    # Undoing the edit made before the export does not take the exported key back.
    seed_lib.undo(first.undo)
    assert _key(seed_lib, pid) == exported
    assert seed_lib.paper(pid)["year"] == year
    others = [r[0] for r in seed_lib.db.execute(
        "SELECT id FROM papers WHERE id NOT IN frozen_keys")]
    assert len(others) == 192  # only what left was frozen


def test_a_key_the_user_typed_stays_through_year_corrections(seed_lib):
    pid, year = _inferred(seed_lib)
    seed_lib.bibtex.set_citekey(pid, "mine2020")
    seed_lib.curation.set_year(pid, year - 1)
    assert _key(seed_lib, pid) == "mine2020"
    assert seed_lib.paper(pid)["sources"]["citekey"]["source"] == "user"
    assert seed_lib.paper(pid)["sources"]["year"]["source"] == "user"


def test_suffixes_follow_first_seen_order_when_keys_are_remade(lib):
    with lib.transaction() as db:
        for n, title in enumerate(("Scaling A", "Scaling B")):
            db.execute("INSERT INTO papers (id, title, title_key, citekey, year, added, modified)"
                       " VALUES (?, ?, ?, ?, 2024, 'x', 'x')", [n + 1, title, title.lower(),
                                                               f"tmp{n}"])
        db.execute("UPDATE papers SET authors = '[\"Jo Smith\"]'")
        rekeyed = refresh(db, [2, 1])
    assert rekeyed == {1: ("tmp0", "smith2024scaling"), 2: ("tmp1", "smith2024scalinga")}
    with lib.transaction() as db:
        freeze(db, [1])
        db.execute("UPDATE papers SET year = 2023")
        refresh(db, [1, 2])
    assert (_key(lib, 1), _key(lib, 2)) == ("smith2024scaling", "smith2023scaling")


def test_bib_file_keys_are_frozen_generated_ones_provisional(lib, tmp_path):
    bib = tmp_path / "refs.bib"
    bib.write_text("@misc{mine2020,\n title = {Alpha},\n author = {Ada Smith},\n year = 2020\n}\n"
                   "@misc{bad key,\n title = {Beta},\n author = {Bo Smith},\n year = 2020\n}\n",
                   encoding="utf-8")
    lib.import_paths([bib])
    states = {r[0]: r[1] for r in lib.db.execute("SELECT citekey, id IN frozen_keys FROM papers")}
    assert states == {"mine2020": 1, "smith2020": 0}


def test_upgraded_library_keeps_every_existing_key_frozen(tmp_path):
    path = tmp_path / "old.sqlite"
    shutil.copy(DATA / "library-0001.sqlite", path)
    with Library.open(path) as lib:
        counts = lib.db.execute("SELECT count(*), sum(id IN frozen_keys) FROM papers "
                                "WHERE citekey IS NOT NULL").fetchone()
        assert counts[0] == SEED_PAPERS and counts[1] == SEED_PAPERS


def _digest(path, date_line: str, meta_date: str) -> str:
    path.write_text("new\n\nGet trending papers in your email inbox!\n\nSubscribe\n\n"
                    "Daily Papers\n\nbyAK and the research community\n\n" + date_line + "\n\n"
                    "Alpha Scaling of Things\n\nAn abstract about alpha scaling of things.\n\n"
                    f"  • 3 authors\n·\n{meta_date}\n", encoding="utf-8")
    return str(path)


def test_a_later_digest_printing_the_year_remakes_a_provisional_key(lib, tmp_path):
    lib.import_paths([_digest(tmp_path / "a.txt", "Oct 30", "Jun 21")])
    (pid,) = lib.search("").ids
    first = lib.paper(pid)
    assert first["year_inferred"] and first["citekey"] == f"alpha{first['year']}"
    lib.import_paths([_digest(tmp_path / "b.txt", "Oct 31, 2023", "Jun 21, 2023")])
    second = lib.paper(pid)
    assert (second["year"], second["year_inferred"]) == (2023, False)
    assert second["citekey"] == "alpha2023"


def test_a_later_digest_leaves_a_frozen_key_alone(lib, tmp_path):
    lib.import_paths([_digest(tmp_path / "a.txt", "Oct 30", "Jun 21")])
    (pid,) = lib.search("").ids
    key = lib.paper(pid)["citekey"]
    lib.bibtex.export_to(tmp_path / "out.bib")
    lib.import_paths([_digest(tmp_path / "b.txt", "Oct 31, 2023", "Jun 21, 2023")])
    assert lib.paper(pid)["year"] == 2023 and lib.paper(pid)["citekey"] == key


def test_exporting_again_freezes_only_keys_not_frozen_yet(seed_lib, tmp_path):
    heard = []
    seed_lib.add_listener(heard.append)
    ids = seed_lib.search("").ids
    assert seed_lib.bibtex.export_to(tmp_path / "first.bib", ids[:10]) == 10
    assert [set(c.paper_ids) for c in heard] == [set(ids[:10])]
    assert seed_lib.bibtex.export_to(tmp_path / "again.bib", ids[:20]) == 20
    assert [set(c.paper_ids) for c in heard[1:]] == [set(ids[10:20])]  # only the new ten
    assert seed_lib.bibtex.export_to(tmp_path / "third.bib", ids[:20]) == 20
    assert len(heard) == 2  # nothing left to freeze: no write at all
    frozen = {r[0] for r in seed_lib.db.execute("SELECT id FROM papers WHERE id IN frozen_keys")}
    assert frozen == set(ids[:20])
    assert (tmp_path / "again.bib").read_bytes() == (tmp_path / "third.bib").read_bytes()

"""Each importer says which papers it created: ``FileReport.created_ids``, and the whole
import's ``ImportResult.created_ids``; undoing an import takes exactly those."""

from __future__ import annotations

from tests.digest_files import paper, write_digest

BIB = """@article{fresh2024,
  title = {A Completely Fresh Study of Sparse Things},
  author = {Doe, Jane},
  year = {2024},
}
"""
BIB_AGAIN = BIB + """
@article{other2023,
  title = {Another Study Nobody Has Seen},
  author = {Roe, Richard},
  year = {2023},
}
"""


def ids(lib) -> set[int]:
    return {r[0] for r in lib.db.execute("SELECT id FROM papers")}


def test_a_digest_names_the_papers_it_created_not_those_it_saw_again(lib, tmp_path):
    lib.import_paths([write_digest(tmp_path, "a.txt", 3, 1, {1: 5, 2: 6, 3: 7})])
    before = ids(lib)
    result = lib.import_paths([write_digest(tmp_path, "b.txt", 3, 8, {2: 9, 3: 9, 4: 1, 5: 2})])
    (report,) = result
    made = sorted(ids(lib) - before)
    assert len(made) == 2 and report.new_papers == 2
    assert report.created_ids == made and result.created_ids == made
    assert [lib.paper(p)["title"] for p in made] == [paper(4)[0], paper(5)[0]]
    assert set(report.paper_ids) > set(made)  # papers 2 and 3 were seen again
    assert "created_ids" not in report.to_json()  # the report's JSON is as it was
    assert sorted(lib.imports.record(result).created) == made


def test_a_bib_file_names_the_papers_it_created(lib, tmp_path):
    (tmp_path / "one.bib").write_text(BIB, encoding="utf-8")
    first = lib.import_paths([tmp_path / "one.bib"])
    assert first.created_ids == sorted(ids(lib)) and len(first.created_ids) == 1
    before = ids(lib)
    (tmp_path / "two.bib").write_text(BIB_AGAIN, encoding="utf-8")
    second = lib.import_paths([tmp_path / "two.bib"])
    assert second[0].created_ids == sorted(ids(lib) - before)
    assert len(second[0].created_ids) == 1 and second[0].merged == 1


def test_the_created_ids_of_several_files_come_file_by_file_and_undo_takes_them(lib, tmp_path):
    files = [write_digest(tmp_path, "a.txt", 3, 1, {1: 5, 2: 6}),
             write_digest(tmp_path, "b.txt", 3, 8, {2: 7, 3: 8})]
    result = lib.import_paths(files)
    assert [len(r.created_ids) for r in result] == [2, 1]
    assert result.created_ids == [*result[0].created_ids, *result[1].created_ids]
    assert result.created_ids == sorted(ids(lib))
    changes = lib.imports.undo(lib.imports.record(result))
    assert changes.result["deleted"] == 3 and ids(lib) == set()

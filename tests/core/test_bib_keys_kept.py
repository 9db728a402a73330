"""A .bib file's keys are kept exactly as written: every key BibTeX or biber accepts
stays unless another paper has that very key or it is retired (a key another paper
has in another case stays, as biber tells them apart, and the report says BibTeX
does not); a key made for an entry whose key cannot be used never takes (even in
case) a key of the file or of the library, and every key not kept is in the report."""

from __future__ import annotations

import json
import subprocess
import sys

# A Mendeley export: the first key holds a command, the next two are ordinary keys
# that a key made for the first must not take.
MENDELEY = r"""@article{Zhang2021\textdollar,
  author = {Zhang, Wei}, title = {First paper}, journal = {J}, year = {2021}}
@article{Zhang2021,
  author = {Zhang, Li}, title = {Second paper}, journal = {J}, year = {2021}}
@article{Zhang2021a,
  author = {Zhang, Min}, title = {Third paper}, journal = {J}, year = {2021}}
"""


def _keys(lib) -> dict[str, str]:
    return dict(lib.db.execute("SELECT title, citekey FROM papers").fetchall())


def test_a_made_key_never_takes_a_key_of_the_file(lib, tmp_path):
    path = tmp_path / "mendeley.bib"
    path.write_text(MENDELEY, encoding="utf-8")
    report = lib.import_paths([path])[0]
    keys = _keys(lib)
    assert keys["Second paper"] == "Zhang2021"
    assert keys["Third paper"] == "Zhang2021a"
    made = keys["First paper"]
    assert made.casefold() not in {"zhang2021", "zhang2021a"}
    assert report.renamed == [{"line": 1, "old": "Zhang2021\\textdollar", "new": made,
                               "why": "BibTeX or biber cannot read or cite this key"}]
    assert report.rename_lines() == [
        f"Zhang2021\\textdollar -> {made} (line 1: BibTeX or biber cannot read or cite "
        "this key)"]


def test_a_key_differing_only_in_case_from_one_before_it_is_kept(lib, tmp_path):
    """biber tells ``Smith2020`` and ``smith2020`` apart (BibTeX reads them as one key, a
    repeated entry): both are kept as written, each document citing either still
    builds with biber, and the report says BibTeX cites only the first; the very same
    key again is renamed (neither tool reads it twice)."""
    path = tmp_path / "case.bib"
    path.write_text("@misc{Smith2020, title = {Upper}, author = {Ann Smith}, year = 2020}\n"
                    "@misc{smith2020, title = {Lower}, author = {Bo Smith}, year = 2020}\n"
                    "@misc{Smith2020, title = {Again}, author = {Cy Smith}, year = 2020}\n",
                    encoding="utf-8")
    report = lib.import_paths([path])[0]
    keys = _keys(lib)
    assert (keys["Upper"], keys["Lower"]) == ("Smith2020", "smith2020")
    assert keys["Again"].casefold() not in {"smith2020"}
    assert [(r["old"], r["why"]) for r in report.renamed] == [
        ("Smith2020", "an entry before it in this file has this very key (BibTeX and biber "
                      "would use only the first)")]
    assert ("case.bib: line 2: key 'smith2020' is kept beside a key that differs from it "
            "only in case: biber cites both, but BibTeX takes them for one key and cites "
            'only the first ("Repeated entry")') in report.warnings


def _one_then_another(lib, tmp_path, first: str, second: str):
    """Import a .bib file of the entry ``first``, then one of ``second``: its report."""
    for name, entry in (("first.bib", first), ("second.bib", second)):
        (tmp_path / name).write_text(entry + "\n", encoding="utf-8")
        report = lib.import_paths([tmp_path / name])[0]
    return report


def test_a_key_a_paper_has_in_another_case_is_kept(lib, tmp_path):
    report = _one_then_another(
        lib, tmp_path, "@misc{widget2024, title = {Widgets}, author = {Ann Lee}, year = 2024}",
        "@misc{Widget2024, title = {Other}, author = {Roe, Richard}, year = 2024}")
    assert _keys(lib) == {"Widgets": "widget2024", "Other": "Widget2024"}
    assert report.renamed == []
    assert any(w.startswith("second.bib: line 1: key 'Widget2024' is kept beside a key that "
                            "differs from it only in case") for w in report.warnings)


def test_a_made_key_never_takes_a_library_key_in_another_case(lib, tmp_path):
    _one_then_another(lib, tmp_path,
                      "@misc{Lee2019, title = {Kept}, author = {Ann Lee}, year = 2019}",
                      "@misc{bad key, title = {Made}, author = {Bo Lee}, year = 2019}")
    assert _keys(lib)["Made"].casefold() != "lee2019"


def test_the_command_lists_each_renamed_key(tmp_path):
    path = tmp_path / "mendeley.bib"
    path.write_text(MENDELEY, encoding="utf-8")
    run = [sys.executable, "-c", "import sys; from paperdesk.app import main; sys.exit(main())",
           "--library", str(tmp_path / "lib.sqlite"), "--create", "import"]
    text = subprocess.run([*run, str(path)], capture_output=True, text=True, timeout=120)
    assert text.returncode == 0, text.stderr
    assert "renamed: Zhang2021\\textdollar -> " in text.stdout + text.stderr
    (tmp_path / "lib.sqlite").unlink()
    done = subprocess.run([*run, "--json", str(path)], capture_output=True, text=True,
                          timeout=120)
    renamed = json.loads(done.stdout)[0]["renamed"]
    assert [(r["old"], r["line"]) for r in renamed] == [("Zhang2021\\textdollar", 1)]


# Keys with an apostrophe, as bibliographies of Irish names have them (BibTeX cites
# them; biber's parser refuses the apostrophe and reads no entry after it).
APOSTROPHE = """@article{O'Hara_1999, author = {O'Hara, Ann}, title = {Tides}, journal = {J},
  year = 1999}
@article{D'Arcy_2001, author = {D'Arcy, Bo}, title = {Waves}, journal = {J}, year = 2001}
"""


def test_a_key_with_an_apostrophe_is_kept_and_biber_named(lib, tmp_path):
    path = tmp_path / "irish.bib"
    path.write_text(APOSTROPHE, encoding="utf-8")
    report = lib.import_paths([path])[0]
    assert _keys(lib) == {"Tides": "O'Hara_1999", "Waves": "D'Arcy_2001"}
    assert report.renamed == []
    said = [w for w in report.warnings if "biber refuses a key with an apostrophe" in w]
    assert [w.split(": key")[0] for w in said] == ["irish.bib: line 1", "irish.bib: line 3"]
    exported = lib.bibtex.export()
    assert "@article{O'Hara_1999," in exported and "@article{D'Arcy_2001," in exported

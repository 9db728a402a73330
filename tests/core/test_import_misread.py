"""Files that were misread: UTF-16 without a byte-order mark, a .bib whose first entry
comes late, years of five digits, LaTeX nested thousands deep."""

from __future__ import annotations

import pytest

from tests.core.test_import import content
from tests.reliability.digests import digest_text

# -- files that were misread -----------------------------------------------------------------

GOOD_BIB = ("@article{good1,\n  title = {A Good Paper},\n  year = {2020}\n}\n\n"
            "@article{good2,\n  title = {Another Good Paper},\n  year = {2021}\n}\n")


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_byte_order_mark_is_read(lib, tmp_path, seeds, codec):
    text = seeds[0].read_text(encoding="utf-8")
    digest = tmp_path / "digest16.txt"
    digest.write_bytes(text.encode(codec))
    bib = tmp_path / "refs16.bib"
    bib.write_bytes(GOOD_BIB.encode(codec))
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "inside.txt").write_bytes(digest_text(range(3)).encode(codec))
    reports = lib.import_paths([digest, bib, folder])
    assert [r.status for r in reports] == ["imported"] * 3, [r.error for r in reports]
    assert [r.kind for r in reports] == ["digest", "bibtex", "digest"]
    assert f"{codec} text without a byte-order mark; read as {codec}" in reports[0].warnings
    assert reports[0].entries > 10
    assert lib.search('"Another Good Paper"').ids


def test_real_binary_is_still_binary(lib, tmp_path):
    blob = tmp_path / "blob.txt"
    blob.write_bytes(bytes(range(256)) * 64)
    [report] = lib.import_paths([blob])
    assert report.status == "error" and report.error == "blob.txt: a binary file, not a text digest"


def test_a_bib_whose_first_entry_starts_after_64_kb_is_a_bib(lib, tmp_path):
    late = tmp_path / "late.bib"
    late.write_text("% " + "comment line\n% " * 8000 + "\n" + GOOD_BIB, encoding="utf-8")
    assert late.stat().st_size > 100_000
    [report] = lib.import_paths([late])
    assert (report.status, report.kind, report.entries) == ("imported", "bibtex", 2)


def test_a_year_of_five_digits_is_kept_as_written_and_said(lib, tmp_path):
    bib = tmp_path / "years.bib"
    bib.write_text("@article{y, title = {Year Paper}, year = {99999}}\n"
                   "@article{z, title = {Date Paper}, date = {99999-01-02}}\n"
                   "@article{w, title = {Word Paper}, year = {in press}}\n"
                   "@article{v, title = {Fine Paper}, year = {circa 2019}}\n", encoding="utf-8")
    [report] = lib.import_paths([bib])
    assert report.status == "imported"
    warnings = " | ".join(report.warnings)
    assert "line 1: year '99999' is not a four-digit year; kept as written" in warnings
    assert "line 2: date '99999-01-02' is not a date" in warnings
    years = {p["title"]: p["year"] for p in lib.papers(lib.search("").ids)}
    assert years == {"Year Paper": None, "Date Paper": None, "Word Paper": None,
                     "Fine Paper": 2019}
    out = "".join(lib.bibtex.entries(None))
    assert "year = {99999}" in out and "date = {99999-01-02}" in out
    assert "9999}" not in out.replace("99999", "")


def test_nested_latex_skips_that_entry_and_keeps_the_good_ones(lib, tmp_path):
    deep = "\\textbf{" * 5000 + "x" + "}" * 5000
    bib = tmp_path / "deep.bib"
    bib.write_text(GOOD_BIB + f"\n@article{{deep, title = {{{deep}}}, year = {{2020}}}}\n",
                   encoding="utf-8")
    [report] = lib.import_paths([bib])
    assert report.status == "imported" and report.entries == 2
    assert any("entry 'deep': its LaTeX is nested too deeply" in w for w in report.warnings)
    only = tmp_path / "only-deep.bib"
    only.write_text(f"@article{{deep, title = {{{deep}}}, year = {{2020}}}}\n", encoding="utf-8")
    before = content(lib.path)
    [report] = lib.import_paths([only])
    assert report.status == "error" and "nested too deeply" in report.error
    assert "\n" not in report.error
    assert content(lib.path) == before


def test_a_bib_with_nothing_readable_is_one_line_from_the_command_line(tmp_path, seeds):
    import subprocess
    import sys

    library = tmp_path / "l.sqlite"
    run = lambda *a: subprocess.run([sys.executable, "-m", "paperdesk", "--library",  # noqa: E731
                                     str(library), *map(str, a)], capture_output=True,
                                    text=True, timeout=60)
    run("import", seeds[0])
    run("stats")  # settles the planner's statistics
    before = library.read_bytes()
    deep = "\\textbf{" * 5000 + "x" + "}" * 5000
    only = tmp_path / "only-deep.bib"
    only.write_text(f"@article{{deep, title = {{{deep}}}, year = {{2020}}}}\n", encoding="utf-8")
    result = run("import", only)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "nested too deeply" in lines[0]
    assert library.read_bytes() == before

"""C1 controls in a UTF-8 .bib file (U+0080-U+009F: cp1252 quotes and dashes decoded as
Latin-1 once before) are read as the punctuation they stand for, and reported; they
used to be deleted without a word."""

from __future__ import annotations

# A title and an abstract as a Windows tool wrote them (cp1252 bytes 0x93 0x94 0x96
# 0x92 0x85), then read as Latin-1 and saved as UTF-8: each byte became a C1 control.
BIB = ("@article{q1, author = {A. Author}, title = {The \x93best\x94 model \x96 a study},\n"
       "  journal = {J}, year = 2001, abstract = {It\x92s fine\x85 mostly}}\n"
       "@article{q2, author = {B. Author}, title = {Plain}, journal = {J}, year = 2002,\n"
       "  note = {undefined in cp1252: \x81}}\n")


def test_c1_controls_read_as_cp1252_punctuation(lib, tmp_path):
    path = tmp_path / "c1.bib"
    path.write_bytes(BIB.encode("utf-8"))
    report = lib.import_paths([path])[0]
    rows = dict(lib.db.execute("SELECT title, abstract FROM papers").fetchall())
    assert rows["The \u201cbest\u201d model \u2013 a study"] == "It\u2019s fine\u2026 mostly"
    said = [w for w in report.warnings if "C1 control" in w]
    assert said == ["c1.bib: 5 C1 control characters (U+0080-U+009F, first on line 1) read "
                    "as the cp1252 punctuation they stand for (\u201c \u201d \u2013 \u2019 "
                    "\u2026): the file was decoded wrongly once before"]
    exported = lib.bibtex.export()
    assert "title = {The \u201cbest\u201d model \u2013 a study}," in exported
    assert not any("\x80" <= ch <= "\x9f" for ch in exported.replace("\x81", ""))


def test_a_file_without_c1_controls_says_nothing(lib, tmp_path):
    path = tmp_path / "plain.bib"
    path.write_text("@misc{p, title = {Caf\u00e9 \u201cquoted\u201d}}\n", encoding="utf-8")
    report = lib.import_paths([path])[0]
    assert not [w for w in report.warnings if "C1" in w]
    title = lib.db.execute("SELECT title FROM papers").fetchone()[0]
    assert title == "Caf\u00e9 \u201cquoted\u201d"

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


def test_the_byte_search_reads_the_text_as_the_text_search_does():
    """``cp1252_bytes`` (what a UTF-8 file goes through) gives, decoded, the text and the
    warning ``cp1252_punctuation`` gives, whatever stands around the controls."""
    import random

    from paperdesk.core.bibtex.bib_c1 import cp1252_bytes, cp1252_punctuation

    alphabet = "ab \n{}\u00c2\u00e9\u201c\U0001f600" + "".join(map(chr, range(0x80, 0xa0)))
    rng = random.Random(7)
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))
        fixed, said = cp1252_bytes(text.encode("utf-8"), "f.bib")
        assert (fixed.decode("utf-8"), said) == cp1252_punctuation(text, "f.bib")


def test_c1_controls_in_a_file_with_crlf_lines_and_a_bad_byte(lib, tmp_path):
    """The first control's line counts CRLF line ends; a byte that is not UTF-8 is
    reported at its offset in the file as it is, not as the fixed bytes stand."""
    path = tmp_path / "crlf.bib"
    data = (b"@misc{a, title = {Plain}}\r\n\r\n@misc{b, title = {A \xc2\x93quote\xc2\x94}}"
            b"\r\n@misc{c, title = {Bad \xff byte}}\r\n")
    path.write_bytes(data)
    report = lib.import_paths([path])[0]
    titles = {r[0] for r in lib.db.execute("SELECT title FROM papers")}
    assert titles == {"Plain", "Bad \ufffd byte", "A \u201cquote\u201d"}
    assert [w for w in report.warnings if "C1" in w] == [
        "crlf.bib: 2 C1 control characters (U+0080-U+009F, first on line 3) read as the "
        "cp1252 punctuation they stand for (\u201c \u201d): the file was decoded wrongly "
        "once before"]
    offset = data.index(b"\xff")
    assert any(f"byte 0xff at offset {offset} " in w for w in report.warnings), report.warnings

"""Bare specials in a .bib file's printed fields, by TeX's rules of math and verbatim
(core/bibtex/bib_repair.py), counted in the export's report, and off with --as-written."""

from __future__ import annotations

import bibtexparser
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperdesk.core.bibtex.bib_repair import bare_in_notes, bare_percent, repair
from paperdesk.core.bibtex.export_report import ExportReport


@pytest.mark.parametrize(("raw", "written"), [
    (r"{a_b and x^2}", r"{a\_b and x\^{}2}"),
    (r"{$x_1^2$ and $$y_2$$}", r"{$x_1^2$ and $$y_2$$}"),
    (r"{\(x_1^2\) and \[y_2\]}", r"{\(x_1^2\) and \[y_2\]}"),
    (r"{\ensuremath{x_1^{2}} then a_b}", r"{\ensuremath{x_1^{2}} then a\_b}"),
    (r"{\begin{equation}x_1\end{equation} a_b}", r"{\begin{equation}x_1\end{equation} a\_b}"),
    (r"{\begin{align*}x_1 &= y^2\end{align*}}", r"{\begin{align*}x_1 &= y^2\end{align*}}"),
    (r"{\begin{itemize}x_1\end{itemize}}", r"{\begin{itemize}x\_1\end{itemize}}"),
    (r"{IoPP \path=IoPP_SISSA.html= a_b}", r"{IoPP \path=IoPP_SISSA.html= a\_b}"),
    (r"{\path{a_b} \url{c_d#e} \verb|f_g&h| i&j}", r"{\path{a_b} \url{c_d#e} \verb|f_g&h| i\&j}"),
    (r"{\href{http://x/a_b}{see a_b} c_d}", r"{\href{http://x/a_b}{see a_b} c\_d}"),
    (r'"q_r # s"', r'"q\_r \# s"'),
    (r"{already a\_b \& c}", r"{already a\_b \& c}"),
])
def test_tex_rules_for_math_and_verbatim(raw, written):
    assert repair("title", raw) == written


def test_fields_not_printed_as_text_are_never_touched():
    assert repair("url", "{a_b#c}") == "{a_b#c}"
    assert repair("file", "{:a_b.pdf:PDF}") == "{:a_b.pdf:PDF}"


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(["\\", "{", "}", '"', "$", "$$", "#", "&", "_", "^", "a", " ",
                                 "\\url{", "\\path=", "=", "\\verb|", "|", "\\(", "\\)",
                                 "\\[", "\\]", "\\ensuremath{", "\\begin{equation}",
                                 "\\end{equation}", "\\href{"]), max_size=20).map("".join))
def test_repair_only_escapes_bare_specials(raw):
    """Whatever the value, repair adds escapes and nothing else."""
    written = repair("title", raw)
    j = 0
    for ch in raw:  # each character as written, or a special with its escape
        escaped = "\\^{}" if ch == "^" else "\\" + ch
        if ch in "#&_^" and written.startswith(escaped, j) and not written.startswith(ch, j):
            j += len(escaped)
        else:
            assert written[j] == ch, (raw, written)
            j += 1
    assert j == len(written)
    assert written.count("{") - written.count("}") == raw.count("{") - raw.count("}")


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(["\\", "{", "}", '"', "$", "$$", "#", "&", "_", "^", "a", " ",
                                 "\\url{", "\\path=", "=", "\\verb|", "|", "\\(", "\\)",
                                 "\\ensuremath{", "\\begin{equation}", "\\end{equation}",
                                 "\\href{", "\\alpha", "\\#"]), max_size=24).map("".join))
def test_repair_reads_no_further_than_its_last_special(raw):
    """Reading the marks only up to the last bare-special candidate writes what reading
    them all writes."""
    from paperdesk.core.bibtex.bib_repair import _Repair

    assert _Repair(raw).run() == _Repair(raw).run(len(raw))


FILE = r"""@article{dblp1, title = {Bounds for \(n_k^2\) and \ensuremath{x_i} in \[a_b\]},
  journal = {J_1 & Co}, year = 2020}
@misc{plain, title = {Nothing to do}, note = {see \path=a_b=}}
"""


def test_export_counts_the_fields_it_touched_and_as_written_keeps_them(lib, tmp_path):
    path = tmp_path / "f.bib"
    path.write_text(FILE, encoding="utf-8")
    lib.import_paths([path])
    report = ExportReport()
    text = lib.bibtex.export(report=report)
    assert "journal = {J\\_1 \\& Co}" in text
    assert "title = {Bounds for \\(n_k^2\\) and \\ensuremath{x_i} in \\[a_b\\]}" in text
    assert "note = {see \\path=a_b=}" in text
    assert (report.repaired, report.repaired_fields) == (1, ["dblp1.journal"])
    assert "1 field of .bib entries written with bare # & _ ^ escaped" in report.lines()[0]
    report = ExportReport()
    text = lib.bibtex.export(report=report, as_written=True)
    assert "journal = {J_1 & Co}" in text and report.repaired == 0


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='{}\\ab,="@#', max_size=12), st.booleans())
def test_every_field_written_has_braces_that_pair_up(raw, as_written):
    """Whatever a damaged entry holds, no value written can end its entry early."""
    from paperdesk.core.bibtex.export_report import field_writer, well_formed

    report = ExportReport()
    written = field_writer("k", as_written, report)("title", raw)
    assert well_formed(written)
    assert bool(report.balanced) == (not well_formed(raw))
    if well_formed(raw) and as_written:
        assert written == raw
    # One field, read whole (bibtexparser does not count escaped braces as BibTeX does,
    # and a concatenation needs its macros defined: those aside)
    if "#" not in written and "\\" not in written:
        entry = bibtexparser.parse_string(f"@misc{{k, title = {written}, year = 1}}").entries
        assert [sorted(e.fields_dict) for e in entry] in ([["title", "year"]], [])


def test_paired_counts_deep_nesting_too():
    from paperdesk.core.bibtex.export_report import paired

    assert paired("{" * 30 + "x" + "}" * 30)
    assert not paired("{" * 30 + "}" * 29 + "}{")
    assert not paired("}{") and paired("a{b}c") and paired("") and not paired("{")


def test_kept_fields_of_a_paper_without_its_entry_are_written_paired(lib, tmp_path):
    """Fields kept from a .bib file in a library that holds no entry for them (written by
    an older PaperDesk, or by hand) cannot close their entry either."""
    path = tmp_path / "f.bib"
    path.write_text("@article{k, title = {T}, journal = {J}}\n", encoding="utf-8")
    lib.import_paths([path])
    lib.db.execute("""UPDATE papers SET bib_source = NULL,
                      bib_fields = '{"journal": "{J}}, howpublished = {x"}'""")
    text = lib.bibtex.export()
    assert "journal = {{J}, howpublished = {x}}" in text
    assert bibtexparser.parse_string(text).entries[0].fields_dict.keys() == {
        "key", "title", "journal"}


@pytest.mark.parametrize("raw", ['{A} # {B}', 'jan # " 1"', '"a, b"', "1984", "{x, y = z}",
                                 'macro # {, @}'])
def test_values_as_written_are_well_formed(raw):
    from paperdesk.core.bibtex.export_report import balanced

    assert balanced(raw) is raw


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet='{}ab,="@ ', max_size=14).map(lambda t: '"' + t if t[:1] == " " else t))
def test_well_formed_by_groups_agrees_with_the_mark_by_mark_reading(raw):
    from paperdesk.core.bibtex.export_report import _PLAIN_VALUE, _well_formed_deep, well_formed

    starts = raw[:1] in ("{", '"') or raw[:1].isalnum()
    assert well_formed(raw) == (starts and _well_formed_deep(raw))
    if _PLAIN_VALUE.fullmatch(raw):  # the glance never takes what the reading refuses
        assert well_formed(raw)
    deep = "{" * 12 + raw + "}" * 12
    assert well_formed(deep) == _well_formed_deep(deep)


@pytest.mark.parametrize(("raw", "bare"), [
    (r"{see http://x/%7efranconi/ too}", True),
    (r"{50% off}", True),
    (r"{$x % y$}", True),  # a comment in math as well
    (r"{50\% off}", False),
    (r"{\url{http://x/%7e} \path{a%b} \verb|c%d|}", False),
    (r"{a\\% b}", True),  # \\ is a line break; the % after it is bare
    (r"{no percent}", False),
])
def test_a_bare_percent_is_found_by_tex_rules(raw, bare):
    assert bare_percent("annote", raw) is bare
    assert repair("annote", raw) == raw  # the export keeps it as written


def test_fields_not_printed_hold_no_bare_percent():
    assert not bare_percent("url", "{http://x/%7e}")
    assert not bare_percent("file", "{:a%b.pdf:PDF}")


def _imported(tmp_path, text: str) -> tuple[list[str], str]:
    """The import's warnings for a .bib file of ``text``, and the library's export."""
    from paperdesk.core.library import Library

    bib = tmp_path / "in.bib"
    bib.write_text(text, encoding="utf-8")
    with Library.open(tmp_path / "lib.sqlite") as lib:
        return lib.import_paths([bib])[0].warnings, lib.bibtex.export()


def test_the_import_says_where_a_bare_percent_is_and_keeps_it(tmp_path):
    warnings, text = _imported(
        tmp_path, "@misc{a1, title = {Fifty % off}, annote = {see http://x/%7e},\n"
                  "  url = {http://x/%7e}, note = {50\\% kept}, year = 2020}\n"
                  "@misc{a2, title = {Clean}, note = {5\\%}, year = 2021}\n")
    said = [w for w in warnings if "bare %" in w]
    assert len(said) == 1 and "'a1' field title, annote:" in said[0], warnings
    assert "title = {Fifty % off}" in text and "annote = {see http://x/%7e}" in text


@pytest.mark.parametrize("name", ["abstract", "ANNOTATION", "annote"])
def test_fields_no_standard_style_prints_keep_bare_and_underscore_and_caret(name):
    """Escaped there, they would change biber's .bbl (which holds those fields) for no
    reference anyone reads; a bare # is still escaped: biblatex cannot read it back."""
    raw = r"{R&D on x^2 of a_b, $y_1$, \url{c_d}, #1 and \# and \&}"
    assert repair(name, raw) == r"{R&D on x^2 of a_b, $y_1$, \url{c_d}, \#1 and \# and \&}"
    assert bare_in_notes(name, raw) == "&_^"
    assert bare_in_notes(name, r"{only \& $x_1$ and #2}") == ""
    assert bare_in_notes("title", raw) == ""
    assert repair("title", raw) == (r"{R\&D on x\^{}2 of a\_b, $y_1$, \url{c_d}, \#1 and \# "
                                    r"and \&}")


def test_the_import_says_where_a_bare_special_is_kept_in_an_abstract(tmp_path):
    warnings, text = _imported(
        tmp_path, "@article{n1, title = {Q&A}, abstract = {R&D of a_b},\n"
                  "  annote = {x^2}, journal = {J}, year = 2020}\n"
                  "@article{n2, title = {Clean}, abstract = {\\& $x_1$}, year = 2021}\n")
    said = [w for w in warnings if "kept as written (no standard style" in w]
    assert [w.split(": ", 1)[1].split(" kept")[0] for w in said] == [
        "line 1: entry 'n1' field abstract: bare & _",
        "line 1: entry 'n1' field annote: bare ^"], said
    assert "write \\& \\_ for the characters" in said[0]
    assert "abstract = {R&D of a_b}" in text and "annote = {x^2}" in text
    assert "title = {Q\\&A}" in text

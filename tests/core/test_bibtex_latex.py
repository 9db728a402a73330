"""Plain text to BibTeX field text and back (core/bibtex/latex.py)."""

from __future__ import annotations

import bibtexparser
import pytest
from hypothesis import given
from hypothesis import strategies as st

from paperdesk.core.bibtex.latex import escape, protect_title
from paperdesk.core.bibtex.latex_read import decode


@pytest.mark.parametrize(("text", "field"), [
    ("50% & #1 a_b $5", r"50\% \& \#1 a\_b \$5"),
    (r"already 50\% and a\_b", r"already 50\% and a\_b"),
    ("{balanced} braces", r"\{balanced\} braces"),
    ("one } too many", r"one \textbraceright{} too many"),
    ("~3x and x^2", r"\textasciitilde{}3x and x\^{}2"),
    (r"\proj and \eg", r"\textbackslash{}proj and \textbackslash{}eg"),
    ("naïve Zoë", "naïve Zoë"),
])
def test_escape(text, field):
    assert escape(text) == field


@pytest.mark.parametrize("text", [
    "50% & #1 a_b $5", "one } too many {", "~3x and x^2 \\ back", "Łódź, Æsir, naïve, Ångström",
    "α ≈ β → “quoted” – dash … ©", "plain words only", "⁴", "H₂O and x⁴ⁿ", "E = mc²",
])
def test_escape_then_decode_gives_the_text_back(text):
    for ascii in (False, True):
        field = escape(text, ascii=ascii)
        assert field.isascii() or not ascii
        assert decode(field) == text
        # bibtexparser sees one balanced value
        entry = bibtexparser.parse_string("@misc{k, note = {" + field + "}}").entries[0]
        assert entry["note"] == field


def test_non_latin_text_is_transliterated_in_ascii_mode():
    assert escape("中文 Ω", ascii=True) == r"ZhongWen {\ensuremath{\Omega}}"


@pytest.mark.parametrize(("title", "field"), [
    # Only what a style must not lower-case: capitals inside a word or all capitals.
    ("Scaling Laws for Neural Machine Translation",
     "Scaling Laws for Neural Machine Translation"),
    ("POLCA: Power Oversubscription in LLM Cloud Providers",
     "{POLCA:} Power Oversubscription in {LLM} Cloud Providers"),
    ("ZeRO-Infinity: breaking the wall", "{ZeRO-Infinity:} breaking the wall"),
    ("a study of iPhone apps (Part I)", "a study of {iPhone} apps (Part {I)}"),
    ("Über Größe", "Über Größe"),
    ("lower case title", "lower case title"),
    ("Transformer-Based BERT and GPT Models", "Transformer-Based {BERT} and {GPT} Models"),
])
def test_title_capitals_are_protected(title, field):
    assert protect_title(title) == field
    assert decode(field) == title


@pytest.mark.parametrize(("field", "text"), [
    (r"{\"a}{\"o}{\"u} \'e \`{e} \^o \~n \c{c} \v{s} \u{g} \H{o} \k{a} \r{a} \={o} \.{z}",
     "äöü é è ô ñ ç š ğ ő ą å ō ż"),
    (r"{\ss} {\o} {\L}ukasz {\aa} \'{\i}", "ß ø Łukasz å í"),
    (r"{GPT}-4 in {\emph{LLMs}} --- x", "GPT-4 in LLMs --- x"),
    (r"$\alpha$-scaling", "α-scaling"),
    (r"non~breaking", "non breaking"),
    (r"\unknown stays", r"\unknown stays"),
    (r"\textendash{} and \textrightarrow", "– and →"),
])
def test_decode_real_world_latex(field, text):
    assert decode(field) == text


@pytest.mark.parametrize(("field", "text"), [
    (r"\mkbibquote{X} {\em big} {\sc Caps} H\textsubscript{2}O", "X big Caps H2O"),
    (r"\enquote{q} {\relax Yu}ri \noopsort{a}Zeta", "q Yuri Zeta"),
])
def test_decode_drops_formatting_for_display(field, text):
    assert decode(field) == text


@pytest.mark.parametrize(("text", "field"), [
    ("Cu$_2$O films", "Cu$_2$O films"),
    ("in $O(n^2)$ time", "in $O(n^2)$ time"),
    ("costs $5 and $10", r"costs \$5 and \$10"),
    ("α-scaling", r"{\ensuremath{\alpha}}-scaling"),
    ("q\u0301 and e\u0301", r"{\'q} and é"),  # no combining characters: a macro or NFC
])
def test_math_stays_math_and_pdflatex_reads_every_character(text, field):
    assert escape(text) == field


def test_title_math_is_not_braced():
    assert protect_title("Growth of Cu$_2$O and GaN Films") == (
        "Growth of Cu$_2$O and {GaN} Films")


@given(st.text(alphabet="aAbBzZ09 -/.,:'\"\t\x1c(){}$\\", max_size=16))
def test_the_one_search_for_capitals_agrees_with_the_word_by_word_rule(title):
    """ASCII titles are checked with one search; it must find a word to protect exactly
    when the word-by-word rule does."""
    from paperdesk.core.bibtex.latex import _CAPITALS, _protected

    assert bool(_CAPITALS.search(title)) == any(map(_protected, title.split()))


@given(st.text(alphabet="aAbBzZ09 -/.,:'\"\t\x1c(){}$\\%_~^", max_size=24))
def test_titles_found_by_search_are_braced_as_word_by_word(title):
    """A printable ASCII title's words to protect are found by one search; the braces
    must be exactly those the word-by-word rule puts (neighbours sharing them, a first
    article "A" left alone), and the text escaped the same (the word-by-word rule
    takes the title once it is ``printable``: its \x1c is a space)."""
    from paperdesk.core.bibtex.latex import _protect_words
    from paperdesk.core.model.text import printable

    for ascii in (False, True):
        assert protect_title(title, ascii=ascii) == _protect_words(printable(title), ascii)


@pytest.mark.parametrize(("title", "field"), [
    ("A GPT Model", "A {GPT} Model"),
    ("A-B Testing", "{A-B} Testing"),
    ("LosuX: Sparse LLMs and GPT-4 for 3D", "{LosuX:} Sparse {LLMs} and {GPT-4} for {3D}"),
    ("iPhone  ZeRO   offload, Part I", "{iPhone  ZeRO}   offload, Part {I}"),
    ("x'Y and a1B or 50% of C#", "{x'Y} and {a1B} or 50\\% of {C\\#}"),
])
def test_words_to_protect_are_braced(title, field):
    assert protect_title(title) == field

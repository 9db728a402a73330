"""Fast paths of .bib reading checked against what they replace. Name lists with braces
and escapes are split by one regular expression over the text
with its top-level brace groups and escapes masked (``bib_names._masked``); where
that is shown safe it must split exactly as bibtexparser's character-by-character
splitter, which is what the import used for every such list before."""

from __future__ import annotations

from bibtexparser.middlewares.names import split_multiple_persons_names
from hypothesis import given, settings
from hypothesis import strategies as st

from paperdesk.core.bibtex.bib_names import _AND, _masked, _vouched_split, split_names

_PIECES = ["a", "n", "d", "A", "N", "D", " ", "\t", "\n", "\r", "x", "Z", "and", " and ",
           " AnD ", "~", ",", "{", "}", "\\", "\\'", '\\"', "\\ ", "{\\'e}", '\\"{o}',
           "{\\AA{}}", "{{x}}", "{a{b}{c}}", "{\\L{}}ukasz", "\x00", "é", "van der "]


def _reference(text: str) -> list[str] | None:
    try:
        return [n.strip() for n in split_multiple_persons_names(text) if n.strip()]
    except Exception:  # bibtexparser itself gives up: the import falls back, not the mask
        return None


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=18).map("".join))
def test_masked_split_is_bibtexparsers(text: str) -> None:
    want = _reference(text)
    if want is not None:
        assert split_names(text) == want


def test_accented_author_lists_take_the_masked_path_and_split_alike() -> None:
    lists = ["de la Li, Chen and Thắng {\\AA{}}ngstr{\\\"o}m and {\\L{}}ukasz O'Brien and "
             "S{\\'a}nchez, Thắng and Jos{\\'e} {\\\"O}zt{\\\"u}rk",
             "{\\\"O}zt{\\\"u}rk, Bj{\\\"o}rn and {Simon and Schuster} and Fran{\\c{c}}ois Li",
             "M\\\"uller, Jan and Dvo\\v{r}\\'ak, Jan", "{DeepSeek-AI} and {\\relax Yu} Li"]
    for text in lists:
        assert _masked(text) is not None, text
        assert split_names(text) == _reference(text), text
    assert split_names(lists[1])[1] == "{Simon and Schuster}"


def test_lists_the_mask_cannot_vouch_for_go_to_bibtexparser() -> None:
    # an escape straight after " and " (the splitter steps over it and splits later),
    # an escaped space, unbalanced braces
    for text in ["Li and \\'Eva Ek", "Li\\ and Ek", "Li and {Ek", "Li} and Ek", "Ek and \\"]:
        assert _masked(text.strip()) is None, text
        assert split_names(text) == _reference(text), text


_MARKS = ["\\", "~", "$", "{", "}", "a", " ", "\\{", "{}", "^^", "\\write18", "\\input", "é"]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(_MARKS), max_size=16).map("".join))
def test_decode_and_danger_searches_find_what_the_alternations_found(text: str) -> None:
    """``_decode`` reads the start of each mark and, for braces, the end of their run;
    ``dangerous`` the commands found, in order: both as with the patterns they replace."""
    import re

    from paperdesk.core.bibtex import latex_read, tex_safe

    before = re.compile(r"[\\~$]|[{}]+")
    for i in range(len(text) + 1):
        old, new = before.search(text, i), latex_read._ACTIVE.search(text, i)
        assert (old is None) == (new is None)
        if old is not None and new is not None:
            assert old.start() == new.start()
            assert text[old.start()] not in "{}" or old.end() == new.end()
    assert tex_safe.dangerous(text) == list(dict.fromkeys(
        m.group() for m in tex_safe._DANGER.finditer(text)))


def _masked_split(text: str) -> list[str] | None:
    masked = _masked(text)
    if masked is None:
        return None
    names, start = [], 0
    for m in _AND.finditer(masked):
        names.append(text[start:m.start()])
        start = m.end()
    return [*names, text[start:]]


_DEEP = [*_PIECES, "\\{", "\\}", "{\\}", "\\\\", "{{{{{{{{{x}}}}}}}}}", "{ and }", "\\a",
         "\\n", "x\\d", "{\\\\}", "\\\\{"]


@settings(max_examples=4000, deadline=None)
@given(st.lists(st.sampled_from(_DEEP), max_size=18).map("".join))
def test_vouched_split_is_the_masked_split(text: str) -> None:
    """The split without masking, where it is taken, is the masked split exactly."""
    text = text.strip(" \r\n\t")
    got = _vouched_split(text)
    if got is not None:
        assert got == _masked_split(text)


def test_accented_lists_are_split_without_masking() -> None:
    text = ("de la Li, Chen and Thắng {\\AA{}}ngstr{\\\"o}m and {Simon and Schuster} and "
            "S{\\'a}nchez, Thắng and M\\\"uller, Jan")
    assert _vouched_split(text) == _masked_split(text)
    assert len(_vouched_split(text) or []) == 5
    for text in ["Li and \\'Eva Ek", "Li\\ and Ek", "Li and {Ek", "Li} and Ek", "Ek and \\",
                 "{\\{} and Ek"]:
        assert _vouched_split(text) is None, text

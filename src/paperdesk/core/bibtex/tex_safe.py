"""What LaTeX PaperDesk lets through when it writes text of its own (pure).

Text that did not come verbatim from a .bib file (digest titles and abstracts,
organisations, the Hub's records, tags, notes) is written by ``latex.escape``:
everything is escaped as text, except math, which is kept only when every
control sequence in it is in ``MATH_COMMANDS`` (or a control symbol of
``CONTROL_SYMBOLS``), its braces balance, and it holds no ``%``, ``#``, ``&``
nor TeX's ``^^`` character notation (``^^5c`` is a backslash to TeX). The list is
documented in docs/latex-safety.md; ``tests/core/test_tex_safe.py`` keeps the
two in step.

``dangerous`` names the commands a .bib file's own fields are warned about on
import (they are kept as written: the file is the user's), listed in ``tex_danger``
with the ways of hiding them.
"""

from __future__ import annotations

import re

from paperdesk.core.bibtex import tex_danger

# Greek letters (and their variants)
_GREEK = ("alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa "
          "varkappa lambda mu nu xi pi varpi rho varrho sigma varsigma tau upsilon phi varphi "
          "chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega "
          "varGamma varDelta varTheta varLambda varXi varPi varSigma varUpsilon varPhi varPsi "
          "varOmega digamma")
# binary operators, relations, arrows, large operators, named functions, dots
_SYMBOLS = ("times cdot cdots ldots dots dotsc dotsb vdots ddots pm mp div ast star circ "
            "bullet oplus ominus otimes oslash odot wedge vee land lor lnot neg cap cup "
            "setminus sqcup sqcap uplus amalg dagger ddagger wr diamond "
            "leq le geq ge neq ne approx sim simeq cong equiv propto ll gg lesssim gtrsim "
            "leqslant geqslant prec succ preceq succeq subset subseteq supset supseteq "
            "subsetneq supsetneq in notin ni owns mid nmid parallel perp models vdash dashv "
            "asymp bowtie doteq triangleq coloneqq colon "
            "to gets rightarrow leftarrow Rightarrow Leftarrow leftrightarrow Leftrightarrow "
            "longrightarrow longleftarrow Longrightarrow Longleftarrow longleftrightarrow "
            "Longleftrightarrow mapsto longmapsto uparrow downarrow Uparrow Downarrow "
            "updownarrow nearrow searrow swarrow nwarrow hookrightarrow hookleftarrow "
            "rightharpoonup rightleftharpoons iff implies impliedby "
            "sum prod coprod int iint iiint oint bigcup bigcap bigoplus bigotimes bigvee "
            "bigwedge bigsqcup lim limsup liminf max min sup inf arg det dim deg exp gcd hom "
            "ker lg ln log Pr sin cos tan cot sec csc arcsin arccos arctan sinh cosh tanh coth "
            "mod bmod pmod "
            "infty partial nabla forall exists nexists emptyset varnothing aleph beth hbar "
            "hslash ell wp Re Im imath jmath prime backslash angle measuredangle triangle "
            "square Box blacksquare top bot neg flat natural sharp clubsuit diamondsuit "
            "heartsuit spadesuit checkmark surd")
# delimiters and spacing
_DELIMITERS = ("left right middle big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl "
               "Biggr langle rangle lfloor rfloor lceil rceil lvert rvert lVert rVert vert "
               "Vert lbrace rbrace lbrack rbrack quad qquad thinspace medspace thickspace "
               "enspace negthinspace")
# accents, fonts, fractions and roots, styles
_STRUCTURE = ("hat widehat check tilde widetilde acute grave dot ddot dddot breve bar vec "
              "overline underline overbrace underbrace overrightarrow overleftarrow "
              "mathring frac dfrac tfrac cfrac binom dbinom tbinom sqrt root of over choose "
              "mathrm mathbf mathit mathcal mathbb mathsf mathtt mathfrak mathscr mathnormal "
              "boldsymbol bm pmb operatorname text textrm textbf textit textsf texttt "
              "textnormal mbox displaystyle textstyle scriptstyle scriptscriptstyle limits "
              "nolimits stackrel overset underset substack ensuremath not")
MATH_COMMANDS = frozenset(" ".join((_GREEK, _SYMBOLS, _DELIMITERS, _STRUCTURE)).split())
# \, \; \: \! \  \{ \} \| \% \# \& \_ \$ : spacing and escaped characters
CONTROL_SYMBOLS = frozenset(",;:! {}|%#&_$")

# What ``latex.escape`` writes for text (escapes and accents); the names of
# characters it writes come from pylatexenc's table (``latex.char_tables``).
TEXT_COMMANDS = frozenset(
    "textbackslash textbraceleft textbraceright textasciitilde ensuremath "
    "ss o O l L ae AE oe OE aa AA i j u v H c k r d b t".split()) | frozenset("'`^\"~=.")

# What a .bib file holding one is warned about when it is imported (``tex_danger``).
DANGEROUS = tex_danger.DANGEROUS

# A control word (letters; ``@`` counted as a letter, as in a package or a biblatex
# .bbl), a control symbol, a lone backslash at the end, ^^ notation, or a special.
_TOKEN = re.compile(r"\\(?:(?:[^\W\d_]|@)+|[\s\S]|$)|\^\^|[{}%#&$]")


def math_ok(inner: str) -> bool:
    """True when math text (without its delimiters) may be written as it is."""
    depth = 0
    for m in _TOKEN.finditer(inner):
        token = m.group()
        if token == "{":
            depth += 1
        elif token == "}":
            depth -= 1
            if depth < 0:
                return False
        elif token[0] != "\\":
            return False  # % # & $ or ^^
        elif len(token) == 1:
            return False  # a backslash at the end
        elif len(token) == 2 and not token[1].isalpha() and token[1] != "@":
            if token[1] not in CONTROL_SYMBOLS:
                return False
        elif token[1:] not in MATH_COMMANDS:
            return False
    return depth == 0 and inner.count("{") == inner.count("}")


def commands(text: str) -> list[str]:
    """The control sequences of ``text`` in order (names without the backslash; a lone
    backslash at the end as ""), and ``^^`` where TeX's character notation is used."""
    return [m.group()[1:] if m.group()[0] == "\\" else m.group()
            for m in _TOKEN.finditer(text) if m.group()[0] == "\\" or m.group() == "^^"]


_DANGER = tex_danger.DIRECT
# The same without ``^^``: it starts with a backslash, which the search skips to in C.
_DANGER_COMMAND = tex_danger.DIRECT_COMMAND
# Where a command may be hidden (``tex_danger.hidden``): where one of these is.
_HIDING = re.compile(r"\^\^|\\(?:catcode|csname|ifcsname|scantokens|scantextokens|detokenize"
                     r"|@nameuse|@namedef|cs[a-z]*|letcs|use:c|cs:w|tex_csname:D)")


def dangerous(text: str) -> list[str]:
    """The dangerous commands ``text`` holds (``\\write18``...), each once, in order;
    ``^^`` when it uses TeX's character notation, which can spell any of them; then
    those it spells in hiding, each as ``\\input (spelt in ^^ notation)``."""
    if "\\" not in text and "^^" not in text:
        return []
    found = [m.group() for m in (_DANGER if "^^" in text else _DANGER_COMMAND).finditer(text)]
    found = list(dict.fromkeys(found))
    if found and _HIDING.search(text):
        found += tex_danger.hidden(text, found)
    return found


def danger_text(found: list[str], where: str) -> str:
    """What the import report says of the ``dangerous`` commands a value holds."""
    named = " ".join("^^ (TeX's notation for any character)" if f == "^^" else f
                     for f in found)
    return (f"holds {named}, which can read or write files or run programs {where}; kept as "
            "written (see docs/latex-safety.md)")


def definition_warnings(file_name: str, preambles: list[str],
                        strings: list[tuple[str, str, str]]) -> list[str]:
    """The import report's warnings about a file's ``@preamble`` and ``@string``
    definitions holding ``dangerous`` commands."""
    out = [f"{file_name}: @preamble {danger_text(found, 'in every document citing the file')}"
           for text in preambles if (found := dangerous(text))]
    out += [f"{file_name}: @string {macro!r} {danger_text(found, 'wherever it is used')}"
            for macro, value, _word in strings if (found := dangerous(value))]
    return out

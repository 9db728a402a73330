"""Formulas in .bib fields: the plain ones are read without pylatexenc, and read the same."""

import random
import subprocess
import sys

from paperdesk.core.bibtex import latex_read
from paperdesk.core.bibtex.latex_read import decode


def test_plain_formulas_read_as_pylatexenc_reads_them():
    from pylatexenc.latex2text import LatexNodes2Text

    reader = LatexNodes2Text(math_mode="text")
    alphabet = "abcxyzXN0123456789 =+<>().,;:*/|!?[]-"
    rng = random.Random(7)
    samples = ["$x = 5$", "$ p<0.05 $", "$(a+b)$", "$k$", "$a-b$", "$$", "$[0, 1]$"]
    samples += ["$" + "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12))) + "$"
                for _ in range(500)]
    for source in samples:
        assert latex_read._math.__wrapped__(source) == reader.latex_to_text(source).strip()


def test_formulas_with_macros_still_go_through_pylatexenc():
    assert decode(r"a $k \le 3$ b") == "a k ≤ 3 b"
    assert decode(r"$a--b$") == "a–b"
    assert decode(r"$10^{-3}$ and 50\%") == "10^-3 and 50%"


def test_a_plain_formula_does_not_load_pylatexenc():
    code = ("import sys; from paperdesk.core.bibtex.latex_read import decode; "
            "assert decode('error $p < 0.05$ at $n = 12$') == 'error p < 0.05 at n = 12'; "
            "print('pylatexenc' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "False"

"""The export must pass real tools: pdflatex + bibtex (plain) and pdflatex + biber (biblatex).

bibtex and biber exit 0 even with warnings, so their output is read: any
"Warning--", "WARN" or "ERROR" line fails the test, as does any LaTeX error or
warning left after the final run. Without the tools the test is skipped, except
in CI (CI=true), where it fails: CI installs them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.tex

TOOLS = ("pdflatex", "bibtex", "biber")
EXTRA = r"""
@article{mueller2020, author = {M{\"u}ller, J{\"u}rgen and {\L}ukasz Kaiser and Zo{\"e} Ng},
  title = {{\"U}ber {GPT}-4 \& the 100\% Question: x\_1 in {LLMs}}, journal = {J. Mach. Learn.},
  year = 2020, volume = 21, pages = {1--30}, doi = {10.5555/abc_123},
  keywords = {C++ & co, deep_rl}, abstract = {Costs 5\$ and {braces} # 1.}}
@online{deepseek2025r1, author = {{DeepSeek}}, title = {{DeepSeek-R1}: Reasoning},
  date = {2025-01-22}, eprint = {2501.12948}, eprinttype = {arxiv}, primaryClass = {cs.CL},
  note = {Read \S 3 first; 50\% of it.}}
@misc{bare, title = {A Paper With Only a Title}}
"""


def _require_tools() -> None:
    missing = [t for t in TOOLS if shutil.which(t) is None]
    if missing:
        message = f"LaTeX tools missing: {', '.join(missing)}"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message + " (CI installs them; see .ci/dev.py)")
        pytest.skip(message)


def _run(args: list[str], cwd: Path) -> str:
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=300,
                          errors="replace")
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"{' '.join(args)} failed:\n{output[-3000:]}"
    return output


def _latex(cwd: Path, name: str) -> str:
    return _run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", name], cwd)


def _complaints(text: str) -> list[str]:
    return [line for line in text.splitlines()
            if re.search(r"Warning--|\bWARN\b|\bERROR\b|^!", line)]


def _library(seed_lib, tmp_path: Path):
    extra = tmp_path / "extra.bib"
    extra.write_text(EXTRA, encoding="utf-8")
    report = seed_lib.import_paths([extra])[0]
    assert report.new_papers == 3, report.warnings
    ids = [r[0] for r in seed_lib.db.execute("SELECT id FROM papers ORDER BY id LIMIT 30")]
    seed_lib.curation.add_tags(ids, ["to cite", "R&D_2024"])
    seed_lib.curation.add_note(ids[0], "Check eq. #3 & the 10% claim; see a_b.")
    return seed_lib


def _plain_complaints_of_original(tmp_path: Path) -> set[str]:
    build = tmp_path / "original"
    build.mkdir(exist_ok=True)
    (build / "refs.bib").write_text(EXTRA, encoding="utf-8")
    (build / "doc.tex").write_text(
        "\\documentclass{article}\n\\begin{document}\n\\nocite{*}\n"
        "\\bibliographystyle{plain}\n\\bibliography{refs}\n\\end{document}\n",
        encoding="utf-8")
    _latex(build, "doc.tex")
    output = _run(["bibtex", "doc"], build)
    complaints = set(_complaints(output + (build / "doc.blg").read_text(errors="replace")))
    assert complaints == {'Warning--entry type for "deepseek2025r1" isn\'t style-file defined',
                          "Warning--to sort, need author or key in bare"}
    return complaints


@pytest.mark.parametrize("ascii", [False, True])
def test_bibtex_plain_accepts_the_export(seed_lib, tmp_path, ascii):
    _require_tools()
    lib = _library(seed_lib, tmp_path)
    build = tmp_path / "plain"
    build.mkdir()
    count = lib.bibtex.export_to(build / "refs.bib", style="bibtex", ascii=ascii, notes=True)
    assert count == lib.stats()["papers"]
    (build / "doc.tex").write_text(
        "\\documentclass{article}\n\\usepackage[utf8]{inputenc}\n\\begin{document}\n"
        "\\nocite{*}\n\\bibliographystyle{plain}\n\\bibliography{refs}\n\\end{document}\n",
        encoding="utf-8")
    _latex(build, "doc.tex")
    output = _run(["bibtex", "doc"], build)
    blg = (build / "doc.blg").read_text(errors="replace")
    # Entries from a .bib file are written as written: BibTeX may say of them only
    # what it says of the original file (a biblatex type, an entry with no author).
    assert set(_complaints(output + blg)) <= _plain_complaints_of_original(tmp_path), (
        _complaints(output + blg))
    _latex(build, "doc.tex")
    final = _latex(build, "doc.tex")
    log = (build / "doc.log").read_text(errors="replace")
    assert "LaTeX Warning" not in log and not _complaints(final), final[-2000:]
    bbl = (build / "doc.bbl").read_text(errors="replace")
    assert bbl.count("\\bibitem") == count
    # the title as written; the file's note is always there
    assert "{DeepSeek-R1}: Reasoning" in bbl and "{DeepSeek}" in bbl
    assert "Read \\S 3 first; 50\\% of it." in bbl


def test_biber_biblatex_accepts_the_export(seed_lib, tmp_path):
    _require_tools()
    lib = _library(seed_lib, tmp_path)
    build = tmp_path / "biblatex"
    build.mkdir()
    count = lib.bibtex.export_to(build / "refs.bib", style="biblatex", notes=True)
    (build / "doc.tex").write_text(
        "\\documentclass{article}\n\\usepackage[utf8]{inputenc}\n"
        "\\usepackage[backend=biber]{biblatex}\n\\addbibresource{refs.bib}\n"
        "\\begin{document}\n\\nocite{*}\n\\printbibliography\n\\end{document}\n",
        encoding="utf-8")
    _latex(build, "doc.tex")
    output = _run(["biber", "doc"], build)
    assert not _complaints(output), _complaints(output)
    _latex(build, "doc.tex")
    final = _latex(build, "doc.tex")
    log = (build / "doc.log").read_text(errors="replace")
    assert not re.search(r"(LaTeX|biblatex) Warning", log) and not _complaints(final), (
        final[-2000:])
    bbl = (build / "doc.bbl").read_text(errors="replace")
    assert bbl.count("\\entry{") == count

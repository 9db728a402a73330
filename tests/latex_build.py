"""Building a document from an exported .bib with the real tools: pdflatex + bibtex
(plain) and pdflatex + biber (biblatex), for the tests of the export.

bibtex and biber exit 0 even with warnings, so their output is read: ``complaints``
are its "Warning--", "WARN", "ERROR" and LaTeX error lines. Without the tools
``require_tools`` skips the test, except in CI (CI=true), where it fails: CI
installs them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

TOOLS = ("pdflatex", "bibtex", "biber")
# Entries written by hand, with what BibTeX and biber find hard, imported beside the seeds.
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


def require_tools() -> None:
    missing = [t for t in TOOLS if shutil.which(t) is None]
    if missing:
        message = f"LaTeX tools missing: {', '.join(missing)}"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message + " (CI installs them; see .ci/dev.py)")
        pytest.skip(message)


def run(args: list[str], cwd: Path) -> str:
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=300,
                          errors="replace")
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"{' '.join(args)} failed:\n{output[-3000:]}"
    return output


def latex(cwd: Path, name: str, *, shell_escape: bool = False) -> str:
    escape = ["-shell-escape"] if shell_escape else []
    return run(["pdflatex", *escape, "-interaction=nonstopmode", "-halt-on-error", name], cwd)


def complaints(text: str) -> list[str]:
    return [line for line in text.splitlines()
            if re.search(r"Warning--|\bWARN\b|\bERROR\b|^!", line)]


def with_extra(seed_lib, tmp_path: Path):
    """The seed library with EXTRA imported, tags on 30 papers and a note."""
    extra = tmp_path / "extra.bib"
    extra.write_text(EXTRA, encoding="utf-8")
    report = seed_lib.import_paths([extra])[0]
    assert report.new_papers == 3, report.warnings
    ids = [r[0] for r in seed_lib.db.execute("SELECT id FROM papers ORDER BY id LIMIT 30")]
    seed_lib.curation.add_tags(ids, ["to cite", "R&D_2024"])
    seed_lib.curation.add_note(ids[0], "Check eq. #3 & the 10% claim; see a_b.")
    return seed_lib


def plain_complaints_of_original(tmp_path: Path) -> set[str]:
    """What BibTeX says of EXTRA itself, in the plain style."""
    build = tmp_path / "original"
    build.mkdir(exist_ok=True)
    (build / "refs.bib").write_text(EXTRA, encoding="utf-8")
    (build / "doc.tex").write_text(
        "\\documentclass{article}\n\\begin{document}\n\\nocite{*}\n"
        "\\bibliographystyle{plain}\n\\bibliography{refs}\n\\end{document}\n",
        encoding="utf-8")
    latex(build, "doc.tex")
    output = run(["bibtex", "doc"], build)
    found = set(complaints(output + (build / "doc.blg").read_text(errors="replace")))
    assert found == {'Warning--entry type for "deepseek2025r1" isn\'t style-file defined',
                     "Warning--to sort, need author or key in bare"}
    return found


def document(backend: str, *, fontenc: bool = False, uncompressed: bool = False) -> str:
    """A document citing every entry of refs.bib, for ``backend`` (bibtex or biber);
    ``uncompressed``: its PDF's text can be read from the file (``pdf_strings``)."""
    head = "\\documentclass{article}\n\\usepackage[utf8]{inputenc}\n"
    if uncompressed:
        head = "\\pdfcompresslevel=0\n" + head
    if fontenc:
        head += "\\usepackage[T1]{fontenc}\n"
    if backend == "bibtex":
        return head + ("\\begin{document}\n\\nocite{*}\n\\bibliographystyle{plain}\n"
                       "\\bibliography{refs}\n\\end{document}\n")
    return head + ("\\usepackage[backend=biber]{biblatex}\n\\addbibresource{refs.bib}\n"
                   "\\begin{document}\n\\nocite{*}\n\\printbibliography\n\\end{document}\n")


@dataclass
class Build:
    backend: str  # what the back end printed (and, for bibtex, its .blg)
    final: str    # what the last pdflatex run printed
    log: str      # doc.log
    bbl: str      # doc.bbl


def build(folder: Path, backend: str, *, fontenc: bool = False,
          shell_escape: bool = False, uncompressed: bool | None = None,
          style: str = "plain", packages: str = "") -> Build:
    """pdflatex, the back end, then pdflatex twice, on ``folder``'s refs.bib;
    ``shell_escape``: pdflatex may run programs (\\write18), and the PDF is left
    uncompressed so that its text can be searched (``uncompressed``: or not, either
    way); ``style``: the bibtex style; ``packages``: \\usepackage names, comma-separated."""
    text = document(backend, fontenc=fontenc,
                    uncompressed=shell_escape if uncompressed is None else uncompressed)
    text = text.replace("\\bibliographystyle{plain}", f"\\bibliographystyle{{{style}}}")
    if packages:
        text = text.replace("\\begin{document}",
                            "\\usepackage{" + packages + "}\n\\begin{document}")
    (folder / "doc.tex").write_text(text, encoding="utf-8")
    latex(folder, "doc.tex", shell_escape=shell_escape)
    output = run([backend, "doc"], folder)
    if backend == "bibtex":
        output += (folder / "doc.blg").read_text(errors="replace")
    latex(folder, "doc.tex", shell_escape=shell_escape)
    final = latex(folder, "doc.tex", shell_escape=shell_escape)
    return Build(output, final, (folder / "doc.log").read_text(errors="replace"),
                 (folder / "doc.bbl").read_text(errors="replace"))


def pdf_strings(path: Path) -> str:
    """The text strings of an uncompressed PDF's pages, joined (kerning breaks words into
    several strings: they are joined without spaces)."""
    data = path.read_bytes().decode("latin-1")
    return "".join(re.findall(r"\((.*?)(?<!\\)\)", data))

"""Does a .bib round trip add a TeX error? For every real .bib file the repository and
TeX Live hold: import it into an empty library, export it, and build a document
citing every entry from the original and from the export with pdflatex + bibtex
(styles plain, alpha and plainnat) and pdflatex + biber (biblatex); print each
tool's error count for both and whether the .bbl is the same.

Files: tests/data/realbib/*.bib, bench/corpus/*.bib and TeX Live's own .bib files
(``/usr/share/texlive/texmf-dist/bibtex/bib/**/*.bib``; tugboat.bib is left out by
default: 4 MB, run it with --tugboat).

``--tool jabref`` makes the round trip JabRef's instead (the Debian package ``jabref``:
``jabref -n -i in.bib -o out.bib``), judged the same way, for the two side by side.

    PYTHONPATH=src .venv/bin/python bench/roundtrip_tex.py [--only NAME] [--tugboat]
        [--tool paperdesk|jabref] [FILE...]
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests import realbib  # noqa: E402

TEXLIVE = Path("/usr/share/texlive/texmf-dist/bibtex/bib")
STYLES = ("plain", "alpha", "plainnat")
_DOC = ("\\documentclass{article}\n\\usepackage[utf8]{inputenc}\n\\usepackage[T1]{fontenc}\n"
        "\\usepackage{url}\n%s\\begin{document}\n\\nocite{*}\n\\bibliographystyle{%s}\n"
        "\\bibliography{refs}\n\\end{document}\n")


def files(tugboat: bool) -> list[Path]:
    found = sorted(realbib.CORPUS.glob("*.bib")) + sorted((ROOT / "bench" / "corpus").glob("*.bib"))
    found += sorted(p for p in TEXLIVE.rglob("*.bib") if tugboat or p.name != "tugboat.bib")
    return found


def bibtex_errors(bib: str, work: Path, style: str) -> tuple[int, str]:
    """(bibtex's errors + pdflatex's, the .bbl) for ``bib`` under ``style``."""
    work.mkdir(parents=True, exist_ok=True)
    (work / "refs.bib").write_text(bib, encoding="utf-8")
    natbib = "\\usepackage{natbib}\n" if style.endswith("nat") else ""
    (work / "doc.tex").write_text(_DOC % (natbib, style), encoding="utf-8")
    (work / "doc.aux").write_text(f"\\relax \n\\citation{{*}}\n\\bibstyle{{{style}}}\n"
                                  "\\bibdata{refs}\n", encoding="utf-8")
    out = realbib._run(["bibtex", "doc"], work)
    m = re.search(r"\(There (?:was|were) (\d+) error messages?\)", out)
    bbl = work / "doc.bbl"
    text = bbl.read_text(errors="replace") if bbl.exists() else ""
    return (int(m.group(1)) if m else 0) + realbib._latex_errors(work), text


def biber_errors(bib: str, work: Path) -> tuple[int, str]:
    errors, bbl = realbib._backend(bib, work, "biber")
    return errors + realbib._latex_errors(work), bbl


def jabref_round_trip(path: Path, work: Path) -> tuple[str, str]:
    """(the file's text, JabRef's export of it)."""
    work.mkdir(parents=True, exist_ok=True)
    out = work / "jabref-out.bib"
    subprocess.run(["jabref", "-n", "-i", str(path), "-o", str(out)], capture_output=True,
                   timeout=300, check=False)
    if not out.exists():
        raise RuntimeError("JabRef wrote nothing")
    return realbib.text_of(path), out.read_text(encoding="utf-8", errors="replace")


def measure(path: Path, work: Path, tool: str = "paperdesk"
            ) -> dict[str, tuple[int, int, bool]]:
    """{tool: (errors of the original, errors of the export, the same .bbl)}."""
    if tool == "jabref":
        text, first = jabref_round_trip(path, work / "jabref")
    else:
        text, first, _second = realbib.round_trip(path, work)
    jobs = {f"bibtex/{s}": (lambda b, w, s=s: bibtex_errors(b, w, s)) for s in STYLES}
    jobs["biber"] = biber_errors

    def one(name: str) -> tuple[str, tuple[int, int, bool]]:
        run = jobs[name]
        a, bbl_a = run(text, work / name.replace("/", "-") / "input")
        b, bbl_b = run(first, work / name.replace("/", "-") / "export")
        return name, (a, b, bbl_a.split() == bbl_b.split())

    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(pool.map(one, jobs))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path, help="these files instead")
    parser.add_argument("--only")
    parser.add_argument("--tugboat", action="store_true")
    parser.add_argument("--tool", choices=("paperdesk", "jabref"), default="paperdesk")
    args = parser.parse_args(argv)
    if args.tool == "jabref" and shutil.which("jabref") is None:
        raise SystemExit("jabref is not installed (apt-get install jabref)")
    worse: list[str] = []
    same = dict.fromkeys([*(f"bibtex/{s}" for s in STYLES), "biber"], 0)
    count = 0
    for path in args.paths or files(args.tugboat):
        if args.only and args.only not in path.name:
            continue
        with tempfile.TemporaryDirectory() as folder:
            try:
                found = measure(path, Path(folder), args.tool)
            except Exception as exc:  # a file the tool refuses: said, and counted
                why = (str(exc) or repr(exc)).splitlines()[0][:80]
                print(f"{path.name:60} not imported: {why}", flush=True)
                continue
        count += 1
        line = f"{path.name:60}"
        for tool, (a, b, alike) in found.items():
            line += f"  {tool} {a}->{b}{'' if alike else ' (.bbl differs)'}"
            same[tool] += alike
            if b > a:
                worse.append(f"{path.name} ({tool} {a}->{b})")
        print(line, flush=True)
    print(f"\n{count} files; the same .bbl: "
          + ", ".join(f"{tool} {n}/{count}" for tool, n in same.items()))
    print("files with more TeX errors after the round trip: "
          + (", ".join(worse) if worse else "none"))
    return 1 if worse else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""Measuring the .bib round trip on real files (tests/data/realbib/).

For each file: import it into an empty library and export it; import that export
into another empty library and export again. Then count the keys of the input
missing from the export, the fields of the input written back as written
(whitespace aside), and the errors pdflatex+bibtex and pdflatex+biber report
for the input and for the export.

``python -m tests.realbib`` prints the figures for the whole corpus
(``--tex`` adds the LaTeX runs); tests/core/test_realbib.py holds each file to
them.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import bibtexparser

from paperdesk.core.bibtex.bib_scan import loosen
from paperdesk.core.importing.bibtex_import import readable
from paperdesk.core.library import Library
from paperdesk.core.model.decode import decode_text

CORPUS = Path(__file__).parent / "data" / "realbib"
TOOLS = ("pdflatex", "bibtex", "biber")
_ENTRY = re.compile(r"(?m)^[ \t]*@[ \t]*([A-Za-z-]+)[ \t]*[{(]\s*([^,\s{}()\"#%=]+)\s*,")
_NOT_ENTRIES = {"string", "preamble", "comment"}


def corpus() -> list[Path]:
    return sorted(CORPUS.glob("*.bib"))


def text_of(path: Path) -> str:
    return decode_text(path.read_bytes(), path.name)[0]


def keys_of(text: str) -> list[str]:
    """The keys of the entries BibTeX would read (``@type{key,``, its loosest block
    starts too), in order, once each."""
    return list(dict.fromkeys(k for t, k in _ENTRY.findall(loosen(text))
                              if t.lower() not in _NOT_ENTRIES))


def fields_of(text: str) -> dict[str, list[tuple[str, str]]]:
    """key -> [(field name, raw value)], the first entry of each key (as BibTeX uses it);
    ``%`` comments between fields are comments, as biber reads them."""
    parsed = bibtexparser.parse_string(readable(text), parse_stack=[])
    out: dict[str, list[tuple[str, str]]] = {}
    for entry in parsed.entries:
        out.setdefault(entry.key, [(f.key, str(f.value)) for f in entry.fields])
    return out


@dataclass
class Result:
    name: str
    keys: int = 0
    keys_lost: list[str] = field(default_factory=list)
    fields: int = 0
    fields_as_written: int = 0
    changed: list[str] = field(default_factory=list)  # "key.field: before -> after"
    round_trip_same: bool = False
    errors: dict[str, tuple[int, int]] = field(default_factory=dict)  # tool -> (input, export)
    same_bbl: dict[str, bool] = field(default_factory=dict)  # tool -> the same .bbl


def _squeeze(value: str) -> str:
    return " ".join(value.split())


def round_trip(path: Path, work: Path) -> tuple[str, str, str]:
    """(input text, first export, export after importing the first into an empty library)."""
    text = text_of(path)
    with Library.open(work / "first.sqlite") as lib:
        report = lib.import_paths([path])[0]
        assert report.status == "imported", report.error
        first = lib.bibtex.export()
    (work / "first.bib").write_text(first, encoding="utf-8")
    with Library.open(work / "second.sqlite") as lib:
        lib.import_paths([work / "first.bib"])
        second = lib.bibtex.export()
    return text, first, second


def measure(path: Path, work: Path) -> tuple[Result, str, str]:
    result = Result(path.name)
    text, first, second = round_trip(path, work)
    result.round_trip_same = first == second
    keys = keys_of(text)
    exported_keys = set(keys_of(first))
    result.keys = len(keys)
    result.keys_lost = [k for k in keys if k not in exported_keys]
    before, after = fields_of(text), fields_of(first)
    for key, fields in before.items():
        written = {name: value for name, value in after.get(key, [])}
        for name, value in fields:
            result.fields += 1
            if name in written and _squeeze(written[name]) == _squeeze(value):
                result.fields_as_written += 1
            else:
                result.changed.append(f"{key}.{name}: {value!r} -> {written.get(name)!r}")
    return result, text, first


# -- LaTeX ------------------------------------------------------------------------

_DOC = {
    "bibtex": "\\documentclass{article}\n\\usepackage[utf8]{inputenc}\n\\usepackage[T1]{fontenc}\n"
              "\\usepackage{url}\n\\begin{document}\n\\nocite{*}\n\\bibliographystyle{plain}\n"
              "\\bibliography{refs}\n\\end{document}\n",
    "biber": "\\documentclass{article}\n\\usepackage[utf8]{inputenc}\n\\usepackage[T1]{fontenc}\n"
             "\\usepackage[backend=biber]{biblatex}\n\\addbibresource{refs.bib}\n"
             "\\begin{document}\n\\nocite{*}\n\\printbibliography\n\\end{document}\n",
}


def tools_missing() -> list[str]:
    return [t for t in TOOLS if shutil.which(t) is None]


def _run(args: list[str], cwd: Path) -> str:
    try:
        done = subprocess.run(args, cwd=cwd, capture_output=True, timeout=120)
    except subprocess.TimeoutExpired:
        return "! timed out\n"
    return (done.stdout + done.stderr).decode("utf-8", errors="replace")


_AUX = "\\relax \n\\citation{*}\n\\bibstyle{plain}\n\\bibdata{refs}\n"
_BCF: dict[str, str] = {}


def _bcf(work: Path) -> str:
    """The control file biblatex writes for the biber document (the same for every
    .bib: it names refs.bib and \\nocite{*}), made once."""
    if "text" not in _BCF:
        folder = work / "bcf"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "doc.tex").write_text(_DOC["biber"], encoding="utf-8")
        _run(["pdflatex", "-interaction=nonstopmode", "-draftmode", "doc.tex"], folder)
        _BCF["text"] = (folder / "doc.bcf").read_text(encoding="utf-8")
    return _BCF["text"]


def _backend(bib: str, work: Path, backend: str) -> tuple[int, str]:
    """The back end's own error count for ``bib``, and the .bbl it wrote."""
    work.mkdir(parents=True, exist_ok=True)
    (work / "refs.bib").write_text(bib, encoding="utf-8")
    (work / "doc.tex").write_text(_DOC[backend], encoding="utf-8")
    if backend == "bibtex":
        (work / "doc.aux").write_text(_AUX, encoding="utf-8")
        out = _run(["bibtex", "doc"], work)
        m = re.search(r"\(There (?:was|were) (\d+) error messages?\)", out)
        errors = int(m.group(1)) if m else 0
    else:
        (work / "doc.bcf").write_text(_bcf(work.parent), encoding="utf-8")
        out = _run(["biber", "--quiet", "doc"], work)
        errors = len(re.findall(r"(?m)^ERROR - ", out))
    bbl = work / "doc.bbl"
    return errors, bbl.read_text(errors="replace") if bbl.exists() else ""


def _latex_errors(work: Path) -> int:
    log = _run(["pdflatex", "-interaction=nonstopmode", "-draftmode", "doc.tex"], work)
    return len(re.findall(r"(?m)^! ", log))


def compile_errors(bib: str, work: Path, backend: str) -> int:
    """How many errors pdflatex + ``backend`` (bibtex or biber) report for ``bib``:
    the back end's own error messages plus the LaTeX errors of the run that reads
    the bibliography."""
    errors, _bbl = _backend(bib, work, backend)
    return errors + _latex_errors(work)


def same_bbl(text: str, export: str, work: Path, backend: str) -> bool:
    """Does ``backend`` (bibtex or biber) build the same .bbl, white space aside, from
    the export as from the input?"""
    _a, bbl_a = _backend(text, work / "input", backend)
    _b, bbl_b = _backend(export, work / "export", backend)
    return bbl_a.split() == bbl_b.split()


def bbl_both(text: str, export: str, work: Path) -> dict[str, bool]:
    """{backend: the same .bbl from the export as from the input}."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(TOOLS[1:], pool.map(
            lambda b: same_bbl(text, export, work / f"bbl-{b}", b), TOOLS[1:]), strict=True))


def compare_errors(text: str, export: str, work: Path, backend: str, *,
                   full: bool = True) -> tuple[int, int]:
    """(errors of the input, errors of the export) with pdflatex + ``backend``. Without
    ``full``, pdflatex runs only when the two .bbl files differ: the same .bbl in the
    same document gives the same LaTeX errors, so then only the back end's count."""
    a, bbl_a = _backend(text, work / "input", backend)
    b, bbl_b = _backend(export, work / "export", backend)
    if full or bbl_a != bbl_b:
        a += _latex_errors(work / "input")
        b += _latex_errors(work / "export")
    return a, b


def compile_both(text: str, export: str, work: Path, *,
                 full: bool = True) -> dict[str, tuple[int, int]]:
    """{backend: (errors of the input, errors of the export)}, the back ends side by side."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        found = dict(zip(("bibtex", "biber"), pool.map(
            lambda b: compare_errors(text, export, work / b, b, full=full),
            ("bibtex", "biber")), strict=True))
    return found


def _all(tex: bool) -> Iterator[Result]:
    for path in corpus():
        with tempfile.TemporaryDirectory() as folder:
            result, text, first = measure(path, Path(folder))
            if tex:
                result.errors = compile_both(text, first, Path(folder) / "tex")
                result.same_bbl = bbl_both(text, first, Path(folder) / "tex")
            yield result


def main(argv: list[str]) -> int:
    tex = "--tex" in argv
    if tex and tools_missing():
        print(f"LaTeX tools missing: {', '.join(tools_missing())}")
        return 1
    totals = Result("total")
    worse: list[str] = []
    errors = {"bibtex": [0, 0], "biber": [0, 0]}
    same = {"bibtex": 0, "biber": 0}
    for r in _all(tex):
        totals.keys += r.keys
        totals.keys_lost += [f"{r.name}:{k}" for k in r.keys_lost]
        totals.fields += r.fields
        totals.fields_as_written += r.fields_as_written
        line = (f"{r.name:60} keys {r.keys:4} lost {len(r.keys_lost):2}  fields "
                f"{r.fields_as_written:5}/{r.fields:5}  round trip "
                f"{'same' if r.round_trip_same else 'DIFFERS'}")
        for tool, (a, b) in r.errors.items():
            line += f"  {tool} {a}->{b}"
            errors[tool][0] += a
            errors[tool][1] += b
            if b > a:
                worse.append(f"{r.name} ({tool} {a}->{b})")
        for tool, alike in r.same_bbl.items():
            line += f"  {tool} .bbl {'same' if alike else 'DIFFERS'}"
            same[tool] += alike
        print(line)
        for change in r.changed[:5]:
            print(f"    {change[:150]}")
    share = 100 * totals.fields_as_written / max(totals.fields, 1)
    print(f"\n{len(corpus())} files, {totals.keys} keys, {len(totals.keys_lost)} lost "
          f"{totals.keys_lost[:10]}; fields as written {totals.fields_as_written}/"
          f"{totals.fields} = {share:.2f}%")
    if tex:
        for tool, (a, b) in errors.items():
            print(f"pdflatex+{tool}: {a} errors for the inputs, {b} for the exports")
        print(f"files with more errors than their input: {len(worse)} {worse}")
        for tool, count in same.items():
            print(f"{tool}: the same .bbl from the export as from the input for {count} "
                  f"of {len(corpus())} files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

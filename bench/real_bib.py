"""A .bib file of ``n`` entries made of the real entries of seven real bibliographies:

- TeX Live's TUGboat bibliography (``tugboat.bib``), ``texjourn.bib`` and
  ``typeset.bib`` (Nelson Beebe's, found with ``kpsewhich``);
- two theses' bibliographies, kept under bench/corpus/ (see its README for their
  sources and licences): Alexander Lyttle's PhD thesis (a Zotero/Better BibTeX export
  with ADS abstracts) and Arne Johannessen's master's thesis (hand-written biblatex);
- JabRef's and biber's own test files (tests/data/realbib/jabref-*.bib, biber-*.bib).

Every entry is taken in turn, the whole list again and again until ``n``; each copy's
keys get a suffix naming the file and the copy (``key:3.12``), and so do the keys an
entry points to (crossref, xref, xdata, related, entryset). From the second copy on,
each title gets two words and the copy's number in front, so that the import's
duplicate check does not take the copies for the same work. Every file's @String and
@Preamble blocks are kept once, at the top, in file order (a later @String of the same
name wins, as in BibTeX).
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from pathlib import Path

from common import ROOT

BEEBE = Path("/usr/share/texlive/texmf-dist/bibtex/bib/beebe")
CORPUS = ROOT / "bench" / "corpus"
REALBIB = ROOT / "tests" / "data" / "realbib"
WORDS = ("Sparse Robust Adaptive Scalable Causal Efficient Neural Latent Visual Formal Typeset "
         "Hyphenated Modular Unicode Interactive Parallel Portable Literate Structured "
         "Declarative").split()
_HEAD = re.compile(r"\s*@\s*(string|preamble)\s*[{(]", re.I)
_ENTRY = re.compile(r"\s*@\s*(\w+)\s*[{(]", re.I)
_KEY = re.compile(r"^(\s*@\s*\w+\s*[{(]\s*)([^,\s]+)(\s*,)")
_LINKS = re.compile(r"(\b(?:crossref|xref|xdata|related|entryset)\s*=\s*[{\"])([^}\"]*)",
                    re.I)
_TITLE = re.compile(r"(\n\s*title\s*=\s*)([\"{])", re.I)


def texlive(name: str) -> Path:
    """A TeX Live .bib file: where kpsewhich finds it, else under BEEBE."""
    found = shutil.which("kpsewhich") and subprocess.run(
        ["kpsewhich", name], capture_output=True, text=True).stdout.strip()
    path = Path(found) if found else BEEBE / name
    if not path.exists():
        raise SystemExit(f"{name} not found (install texlive-bibtex-extra)")
    return path


def sources() -> list[tuple[str, list[Path]]]:
    """The seven bibliographies, each as the files it is made of."""
    return [
        ("TUGboat", [texlive("tugboat.bib")]),
        ("texjourn", [texlive("texjourn.bib")]),
        ("typeset", [texlive("typeset.bib")]),
        ("thesis Lyttle", [CORPUS / "thesis-lyttle-references.bib"]),
        ("thesis Johannessen", sorted(CORPUS.glob("thesis-johannessen-*.bib"))),
        ("JabRef tests", sorted(REALBIB.glob("jabref-*.bib"))),
        ("biber tests", sorted(REALBIB.glob("biber-*.bib"))),
    ]


def _text(path: Path) -> str:
    data = path.read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_blocks() -> tuple[list[str], list[list[str]]]:
    """(the @String/@Preamble blocks of all files, each file's entries)."""
    head: list[str] = []
    files: list[list[str]] = []
    for _name, paths in sources():
        for path in paths:
            entries = []
            for block in re.split(r"\n(?=[ \t]*@)", "\n" + _text(path)):
                if _HEAD.match(block):
                    if block.strip() not in head:
                        head.append(block.strip())
                elif (m := _ENTRY.match(block)) and m.group(1).lower() != "comment" \
                        and _KEY.match(block):
                    entries.append(block.strip())
            files.append(entries)
    return head, files


def _suffixed(keys: str, suffix: str) -> str:
    return ",".join(f"{k.strip()}{suffix}" if k.strip() else k for k in keys.split(","))


def _unique(entry: str, suffix: str) -> str:
    """The entry with ``suffix`` after its key and after each key it points to."""
    entry = _KEY.sub(lambda m: f"{m.group(1)}{m.group(2)}{suffix}{m.group(3)}", entry, count=1)
    return _LINKS.sub(lambda m: m.group(1) + _suffixed(m.group(2), suffix), entry)


def real_bib(path: Path, n: int) -> dict[str, int]:
    """Write the file (when missing) and return each bibliography's entry count."""
    head, files = read_blocks()
    counts = {}
    for (name, paths), start in zip(sources(), _starts([len(p) for _n, p in sources()]),
                                    strict=True):
        counts[name] = sum(len(f) for f in files[start:start + len(paths)])
    if path.exists():
        return counts
    every = [(f, entry) for f, entries in enumerate(files) for entry in entries]
    rng = random.Random(0)
    out = ["\n\n".join(head)]
    for i in range(n):
        f, entry = every[i % len(every)]
        copy = i // len(every)
        entry = _unique(entry, f":{f}.{copy}")
        if copy:
            a, b = rng.choice(WORDS), rng.choice(WORDS)
            entry = _TITLE.sub(rf"\g<1>\g<2>{a} {b} {copy}: ", entry, count=1)
        out.append(entry)
    path.write_text("\n\n".join(out) + "\n", encoding="utf-8")
    return counts


def _starts(sizes: list[int]) -> list[int]:
    starts, at = [], 0
    for size in sizes:
        starts.append(at)
        at += size
    return starts

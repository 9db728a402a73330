"""The duplicate scan on title shapes that no generator here was tuned to.

Each shape is a digest of ``--papers`` entries whose abstracts, authors and dates are
generate.py's (real shape) and whose titles follow one pattern, all distinct:

- ``numbered``: "Paper 1", "Paper 2"... (every title within the title floor of its
  neighbours, so each candidate pair is judged on its abstracts);
- ``versions``: "Llama 7: Efficient Foundation Models 12" (a name, a version, a variant);
- ``scaling``: "Scaling Laws for Xyz abc" (a shared head, two random words);
- ``template``: five words, each one of twenty (titles a word apart, no numbers).

The digest is imported (``paperdesk import``) and ``paperdesk duplicates --json`` timed
as a whole process, beside a bare process; the candidate pairs come from the library's
own blocking (``blocking.id_pairs``): met in blocking, compared (titles with the same
numbers), within the title floor. No target here: the figures say how the cost
follows the work when titles are this alike. Libraries are cached under bench/out/.

    .venv/bin/python bench/bench_dup_shapes.py [--papers 100000] [--shapes numbered ...]
"""

from __future__ import annotations

import argparse
import random
import string
import subprocess
import sys

import generate
from common import OUT, header, note, process_usage, report
from paperdesk.core.duplicates import blocking, duplicates
from paperdesk.core.library import Library

EXE = [sys.executable, "-m", "paperdesk"]


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(3, 10)))


# Five slots of twenty words each ("Sparse Attention for Efficient Reasoning"): titles a
# word apart are within the title floor, and no number tells them apart.
_VOCABULARY = [w.split() for w in (
    "Sparse Dense Efficient Scalable Robust Adaptive Unified Simple Fast Lightweight "
    "Latent Modular Hierarchical Causal Contrastive Generative Structured Multimodal "
    "Recurrent Federated",
    "Attention Transformers Diffusion Retrieval Distillation Quantization Pruning Routing "
    "Tokenization Alignment Pretraining Finetuning Decoding Planning Memory Experts Agents "
    "Rewards Embeddings Adapters",
    "for with via beyond towards under across without through inside from against into "
    "over within after before along beside around",
    "Long Visual Multilingual Mathematical Spoken Medical Legal Robotic Scientific Code "
    "Video Graph Tabular Molecular Financial Clinical Musical Chemical Embodied Temporal",
    "Reasoning Generation Understanding Translation Retrieval Summarization Planning "
    "Control Forecasting Search Recognition Segmentation Editing Synthesis Grounding "
    "Navigation Captioning Verification Tutoring Discovery")]

SHAPES = {
    "numbered": lambda i, rng: f"Paper {i}",
    "versions": lambda i, rng: (f"Llama {i % 50}: {('Open', 'Efficient', 'Small')[i % 3]} "
                                f"Foundation Models {i // 150}"),
    "scaling": lambda i, rng: f"Scaling Laws for {_word(rng).title()} {_word(rng)}",
    "template": lambda i, rng: " ".join(rng.choice(_VOCABULARY[k]) for k in range(5)),
}


def library(shape: str, n: int, keep: bool = False) -> str:
    path = OUT / f"dup-shape-{shape}-{n}.sqlite"
    if not path.exists():
        generate.set_shape("real")
        rng = random.Random(5)
        entries = [(generate.paper(i, 7), SHAPES[shape](i, rng)) for i in range(n)]
        digest = OUT / f"dup-shape-{shape}-{n}.txt"
        digest.write_text(generate.digest_text(entries), encoding="utf-8")
        subprocess.run([*EXE, "--library", str(path), "--create", "import", str(digest)],
                       check=True, stdout=subprocess.DEVNULL)
        if not keep:
            digest.unlink()
    return str(path)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=100_000)
    parser.add_argument("--shapes", nargs="+", choices=list(SHAPES), default=list(SHAPES))
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--keep", action="store_true",
                        help="keep the digest of each shape whose library is built "
                             "(bench/out/dup-shape-SHAPE-N.txt), for bench_import.py --digest")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    header(f"duplicates --json on {args.papers:,} papers of alike titles (runs: {args.runs})")
    for shape in args.shapes:
        path = library(shape, args.papers, args.keep)
        lib = Library.open(path)
        counts: dict[str, int] = {}
        pairs = blocking.id_pairs(*duplicates._titles(lib.db), None, None, counts)
        lib.close()
        runs = [process_usage([*EXE, "--library", path, "duplicates", "--json"])
                for _ in range(args.runs)]
        floor = process_usage([sys.executable, "-c", "pass"])[0]
        seconds = sorted(r[0] for r in runs)[len(runs) // 2]
        report(f"duplicates --json, {shape} titles", seconds, floor, None)
        each = f" ({1e6 * seconds / len(pairs):.0f} us a pair)" if len(pairs) >= 1000 else ""
        note(f"{counts['candidates']:,} title pairs met in blocking, {counts['compared']:,} "
             f"of them with the same numbers compared, {len(pairs):,} within the "
             f"title floor and judged{each}; peak memory "
             f"{max(r[2] for r in runs):.0f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

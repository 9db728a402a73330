"""Realistic generated digests and libraries for the benchmarks.

Papers come from a deterministic universe: ``paper(i, seed)`` is always the
same paper, with a title of about 100 characters and an abstract of about 1,200
built from a research vocabulary, and its own metadata (an author count or an
organisation, a date, upvotes). A digest is a list of such papers in the real
text format (see core/model/digest.py), with a share of re-typed repeats (another
case, an en dash for a hyphen, curly quotes, double spaces, a trailing full
stop, " - " for ": ") and exact repeats, which import merges into one paper.
Optional "near" copies carry a typo in the title: they stay separate papers
and are what a duplicate scan should find.

``make_library(path, n_papers)`` builds a library of exactly ``n_papers``
papers by importing generated digests, and caches it under bench/out/.

Two shapes (``--shape``, or ``set_shape``): ``real`` (the default) draws title words and
lengths from the seeds' own titles (seeds/*.txt), gives a fifth of the titles one of a few
shared openings ("Scaling Laws for X", "A Survey of X"), writes long abstracts with LaTeX
(``$...$``, ``\\emph``, ``{\\em}``, ``\\%``), and re-types its repeats with a typo as well
as case and punctuation changes, so that they stay separate papers for the duplicate scan
to find (they share the abstract); ``friendly`` is the first generator, kept for the old
figures. Cache names carry the shape.

    python bench/generate.py --entries 1000 -o digest.txt [--shape friendly]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import real_shape

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
sys.path.insert(0, str(ROOT / "src"))

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
HEADER = ["new", "Get trending papers in your email inbox!", "Subscribe"]
DIGEST_YEAR = 2025
VERSION = 2  # of the generator: part of the cache names
SHAPES = ("real", "friendly")
SHAPE = "real"


def set_shape(shape: str) -> None:
    """Choose the generator's shape for the papers made from here on."""
    global SHAPE
    if shape not in SHAPES:
        raise ValueError(f"unknown shape {shape!r}")
    SHAPE = shape

ADJ = ("Scalable Efficient Robust Sparse Adaptive Multimodal Multilingual Hierarchical Causal "
       "Contrastive Generative Discriminative Federated Differentiable Probabilistic Bayesian "
       "Latent Recurrent Convolutional Autoregressive Diffusion-Based Self-Supervised "
       "Semi-Supervised Few-Shot Zero-Shot Long-Context Low-Rank Quantized Distributed "
       "Lightweight Interpretable Faithful Grounded Structured Unified Open-Vocabulary "
       "Instruction-Tuned Retrieval-Augmented Energy-Efficient Privacy-Preserving Continual "
       "Compositional Equivariant Neural Symbolic Temporal Spatial Streaming").split()
NOUN = ("Transformers Language Models Agents Embeddings Attention Representations Policies "
        "Retrieval Reasoning Alignment Distillation Pretraining Fine-Tuning Tokenizers Benchmarks "
        "Datasets Kernels Graphs Networks Decoders Encoders Experts Routers Planners Simulators "
        "Rewards Preferences Memories Caches Schedulers Compilers Optimizers Priors Features "
        "Circuits Heads Layers Adapters Prompts Evaluations Trajectories Proofs Programs Videos "
        "Images Speech Molecules Proteins Robots Scenes Meshes Point-Clouds Tables Documents"
        ).split()
TASK = ("Machine Translation|Code Generation|Image Synthesis|Video Understanding|"
        "Speech Recognition|Protein Folding|Robotic Manipulation|Mathematical Reasoning|"
        "Question Answering|"
        "Text-to-Image Generation|Time Series Forecasting|Molecular Design|Weather Prediction|"
        "Autonomous Driving|Recommendation|Program Synthesis|Theorem Proving|Data Selection|"
        "Cloud Resource Scaling|Information Extraction|Summarization|Semantic Segmentation|"
        "3D Reconstruction|Visual Grounding|Tool Use|Web Navigation|Long-Horizon Planning|"
        "Anomaly Detection|Medical Imaging|Legal Reasoning").split("|")
LINK = ["for", "via", "with", "beyond", "towards", "without", "under", "at the Scale of"]
SUBJ = ("we|our method|the proposed framework|this approach|the model|our analysis|the benchmark|"
        "the resulting system|a simple baseline|the learned policy|our dataset").split("|")
VERB = ("improves|outperforms|reduces|scales|generalises to|matches|accelerates|stabilises|"
        "characterises|unifies|extends|simplifies|bounds|predicts|explains").split("|")
OBJ = ("the state of the art|prior work|strong baselines|the compute budget|inference latency|"
       "training cost|sample efficiency|memory use|the error rate|downstream accuracy|"
       "out-of-distribution robustness|the number of parameters|human preference scores").split("|")
TAIL = ("on {n} benchmarks|by {p}\\%|across {n} languages|with {n}B parameters|"
        "at a fraction of the cost|without additional supervision|in {n} of {m} settings|"
        "while using {p}% less memory|on the {w} dataset|compared to {w}").split("|")
OPEN = ("Recent work has shown that|It is widely believed that|Despite rapid progress,|"
        "A central challenge in machine learning is that|In practice,|Surprisingly,|"
        "Building on these observations,|To address this gap,|Moreover,|Finally,").split("|")
ORGS = [("deepseek-ai", "DeepSeek"), ("Zyphra", "Zyphra"), ("ReactiveAI", "Reactive AI"),
        ("google", "Google"), ("meta-llama", "Meta Llama"), ("allenai", "Ai2"),
        ("microsoft", "Microsoft"), ("nvidia", "NVIDIA"), ("Qwen", "Qwen"),
        ("mistralai", "Mistral AI"), ("HuggingFaceTB", "Hugging Face Smol Models Research")]
OPENER = ("Towards|On the Limits of|Rethinking|Learning|Scaling|Beyond|Understanding|Revisiting|"
          "Benchmarking|Measuring|Training|Evaluating|Improving|Do|Can|When Do|Why Do|"
          "Efficient Training of|Aligning|Distilling|Probing|Steering|Compressing|Adapting|"
          "Pruning|Unlocking|Exploring|Bridging|Decoding|Grounding|Generating|Mitigating|"
          "Quantifying|Characterizing|Accelerating|Optimizing|Reasoning about|Teaching|"
          "Self-Improving|Inverse|Fast|Deep|Neural|Large-Scale|Parameter-Efficient").split("|")
SYLL = "ka lo mi ra te su no vi de za po li fe gu xa bo re ti".split()


@dataclass
class Paper:
    title: str
    abstract: str
    authors: int | None        # an author count, or None when an organisation is shown
    org: tuple[str, str] | None
    year: int
    month: int
    day: int
    upvotes: int | None


def _name(rng: random.Random) -> str:
    word = "".join(rng.choice(SYLL) for _ in range(rng.randint(2, 3)))
    return word.upper() if rng.random() < 0.5 else word.capitalize() + rng.choice(["", "-2", "X"])


def _title(rng: random.Random) -> str:
    parts = [rng.choice(ADJ), rng.choice(ADJ), rng.choice(NOUN), rng.choice(LINK),
             rng.choice(ADJ), rng.choice(TASK)]
    if rng.random() < 0.6:
        parts += [rng.choice(["and", "with", "from"]), rng.choice(ADJ), rng.choice(NOUN)]
    body = " ".join(parts)
    if rng.random() < 0.15:
        body += f" in '{rng.choice(ADJ)}' Regimes"
    roll = rng.random()
    if roll < 0.45:
        body = f"{_name(rng)}: {body}"
    elif roll < 0.75:
        body = f"{rng.choice(OPENER)} {body}"
    while len(body) < 80:
        body += f" and {rng.choice(ADJ)} {rng.choice(NOUN)}"
    return body


def _sentence(rng: random.Random) -> str:
    tail = rng.choice(TAIL).format(n=rng.randint(2, 60), m=rng.randint(61, 90),
                                   p=rng.randint(3, 70), w=_name(rng))
    words = [rng.choice(OPEN), rng.choice(SUBJ), rng.choice(VERB), rng.choice(OBJ),
             f"for {rng.choice(ADJ).lower()} {rng.choice(TASK).lower()}", tail]
    if rng.random() < 0.4:
        words[-1] += f", using {rng.choice(ADJ).lower()} {rng.choice(NOUN).lower()}"
    if rng.random() < 0.03:
        words[-1] += f" (code: https://github.com/{_name(rng).lower()}/{_name(rng).lower()}_code)"
    return " ".join(words) + "."


def paper(i: int, seed: int = 0) -> Paper:
    """Paper number ``i`` of the universe ``seed`` (in the current shape): always the same."""
    rng = random.Random(seed * 1_000_003 + i)
    if SHAPE == "real":
        title, abstract = real_shape.title(rng), real_shape.abstract(rng, i)
    else:
        title = _title(rng)
        sentences: list[str] = []
        while sum(len(s) + 1 for s in sentences) < rng.randint(900, 1500):
            sentences.append(_sentence(rng))
        abstract = " ".join(sentences)
    authors, org = (None, rng.choice(ORGS)) if rng.random() < 0.12 else (rng.randint(1, 40), None)
    year = rng.choices([2021, 2022, 2023, 2024, 2025], [1, 2, 4, 6, 8])[0]
    upvotes = rng.randint(1, 300) if rng.random() < 0.6 else None
    return Paper(title, abstract, authors, org, year, rng.randint(1, 12),
                 rng.randint(1, 28), upvotes)


def retype(title: str, rng: random.Random) -> str:
    """The same title typed again: the normalised title stays the same."""
    ways = [str.lower, str.upper,
            lambda t: t.replace("-", "\u2013"),
            lambda t: t.replace("'", "\u2018", 1).replace("'", "\u2019", 1) if "'" in t
            else t.replace(" ", "  ", 2),
            lambda t: t.replace(" ", "  ", 3),
            lambda t: t + ".",
            lambda t: t.replace(": ", " - ") if ": " in t else t + "."]
    for way in rng.sample(ways, rng.randint(1, 2)):
        title = way(title)
    return title


def near(title: str, rng: random.Random) -> str:
    """A typo in a word of six letters or more: a possible, not certain, duplicate."""
    words = title.split(" ")
    long_words = [k for k, w in enumerate(words) if len(w) >= 6 and w.isalpha()]
    k = rng.choice(long_words) if long_words else max(range(len(words)),
                                                       key=lambda n: len(words[n]))
    w = words[k]
    if len(w) < 2:
        words[k] = w + w
        return " ".join(words)
    j = rng.randrange(1, len(w) - 2) if len(w) > 3 else 0
    if w[j].lower() != w[j + 1].lower():
        w = w[:j] + w[j + 1] + w[j] + w[j + 2:]
    else:
        w = w[:j] + w[j + 2:]
    words[k] = w
    return " ".join(words)


def _date_line(p: Paper) -> str:
    when = f"{MONTHS[p.month - 1]} {p.day}"
    if p.year < DIGEST_YEAR:
        when += f", {p.year}"
    return f"{when} {p.upvotes}" if p.upvotes is not None else when


def entry_text(p: Paper, title: str, *, metadata: bool) -> str:
    block = f"{title}\n\n{p.abstract}\n\n"
    if metadata:
        who = f"  • {p.authors} authors" if p.authors is not None else f"{p.org[0]} {p.org[1]}"
        block += f"{who}\n·\n{_date_line(p)}\n\n"
    return block


def digest_text(entries: list[tuple[Paper, str]], *, daily: bool = True, date: str = "Dec 30",
                metadata_share: float = 0.85, seed: int = 0) -> str:
    rng = random.Random(seed)
    head = HEADER + (["Daily Papers"] if daily else []) + ["byAK and the research community", date]
    parts = ["\n\n".join(head) + "\n\n"]
    parts += [entry_text(p, t, metadata=daily and rng.random() < metadata_share)
              for p, t in entries]
    return "".join(parts)


def plan_digest(n_entries: int, *, seed: int = 0, first: int = 0, older: int = 0,
                retyped_share: float = 0.05, exact_share: float = 0.02,
                near_share: float = 0.0) -> tuple[list[tuple[Paper, str]], int, int]:
    """Entries for a digest: new papers ``first``, ``first+1``... plus repeats.

    Repeats (re-typed or exact) are of this digest's papers or of papers
    ``0..older-1`` (already in a library). Near copies are new papers.
    Returns the entries, the number of new papers and of near copies.
    """
    rng = random.Random(seed * 7919 + first)
    n_retyped = round(n_entries * retyped_share)
    n_exact = round(n_entries * exact_share)
    n_near = round(n_entries * near_share)
    n_new = max(1, n_entries - n_retyped - n_exact - n_near)
    fresh = [paper(first + k, seed) for k in range(n_new)]
    entries = [(p, p.title) for p in fresh]
    cache: dict[int, Paper] = {}

    def pick() -> Paper:
        if older and rng.random() < 0.5:
            i = rng.randrange(older)
            return cache.setdefault(i, paper(i, seed))
        return rng.choice(fresh)

    if SHAPE == "real":  # re-typed with a typo: new papers the duplicate scan should find
        repeats = [(p, retype(near(p.title, rng), rng)) for p in (pick() for _ in range(n_retyped))]
    else:
        repeats = [(p, retype(p.title, rng)) for p in (pick() for _ in range(n_retyped))]
    repeats += [(p, p.title) for p in (pick() for _ in range(n_exact))]
    repeats += [(p, near(p.title, rng)) for p in (rng.choice(fresh) for _ in range(n_near))]
    n_near += n_retyped if SHAPE == "real" else 0
    for item in repeats:
        entries.insert(rng.randrange(len(entries) + 1), item)
    return entries, n_new, n_near


def generate_digest(n_entries: int, *, seed: int = 0, first: int = 0, older: int = 0,
                    retyped_share: float = 0.05, exact_share: float = 0.02,
                    near_share: float = 0.0, daily: bool = True, date: str = "Dec 30") -> str:
    entries, _, _ = plan_digest(n_entries, seed=seed, first=first, older=older,
                             retyped_share=retyped_share, exact_share=exact_share,
                             near_share=near_share)
    return digest_text(entries, daily=daily, date=date, seed=seed + first)


def same_title_digest(n_entries: int, *, seed: int = 0, same: bool = True) -> str:
    """``n_entries`` different papers (each its own abstract) that all carry one title; with
    ``same=False``, each its own title (the same work without the shared title)."""
    papers = [paper(i, seed) for i in range(n_entries)]
    title = "A Survey of Large Language Models"
    return digest_text([(p, title if same else p.title) for p in papers], seed=seed)


def write_digest(path: Path, n_entries: int, **options: object) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(generate_digest(n_entries, **options), encoding="utf-8")  # type: ignore[arg-type]
    return path


def make_library(path: str | Path, n_papers: int, *, retyped_share: float = 0.05,
                 near_share: float = 0.01, seed: int = 0, digest_size: int = 5000):
    """A library of exactly ``n_papers`` papers at ``path`` (a copy of a cached build).

    Papers are ``paper(0..n-1, seed)`` apart from the near copies. Returns an
    open ``paperdesk.core.library.Library``.
    """
    import cache
    from paperdesk.core.library import Library

    # A library built under an older schema would be upgraded on every open:
    # the cache name carries the latest migration (an older build is upgraded: cache.py).
    shape = "" if SHAPE == "friendly" else f"-{SHAPE}"
    name = (f"lib-v{VERSION}{shape}-m{cache.latest()}-{n_papers}-r{retyped_share}"
            f"-n{near_share}-s{seed}-d{digest_size}.sqlite")
    cached = OUT / name
    if not cache.ready(cached):
        OUT.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=OUT) as tmp:
            _build(Path(tmp), cached, n_papers, retyped_share, near_share, seed, digest_size)
    path = Path(path)
    shutil.copyfile(cached, path)
    # The copy on the disk before anything is timed: the kernel's writing back of a
    # fresh copy of a large library would otherwise share the cores with the figure.
    os.sync()
    return Library.open(path)


def _build(tmp: Path, target: Path, n: int, retyped_share: float, near_share: float,
           seed: int, digest_size: int) -> None:
    from paperdesk.core.library import Library

    lib = Library.open(tmp / "library.sqlite")
    have, first, number = 0, 0, 0
    while have < n:
        options = {"seed": seed, "first": first, "older": first, "retyped_share": retyped_share}
        size = min(digest_size, n - have)
        entries, fresh, copies = plan_digest(size, near_share=near_share, **options)
        if have + fresh + copies != n and n - have <= digest_size:
            # The last digest: no near copies, and as many entries as land exactly on n.
            merged = 0.02 + (retyped_share if SHAPE == "friendly" else 0)  # per entry
            guess = max(1, int((n - have) / (1 - merged)) - 3)
            for size in range(guess, guess + 20):
                entries, fresh, copies = plan_digest(size, **options)
                if have + fresh + copies == n:
                    break
        day = f"Dec {29 + number % 3}"
        file = tmp / f"digest-{number:04d}.txt"
        file.write_text(digest_text(entries, date=day, seed=seed + number), encoding="utf-8")
        report = lib.import_paths([file])[0]
        if report.failed:
            raise RuntimeError(report.error)
        first += fresh
        number += 1
        # Two typo'd copies of one paper may come out alike and merge: count what went in.
        have = lib.stats()["papers"]
    papers = lib.stats()["papers"]
    lib.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    lib.close()
    if papers != n:
        raise RuntimeError(f"built {papers} papers, wanted {n}")
    shutil.move(str(tmp / "library.sqlite"), target)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write a generated digest file.")
    parser.add_argument("--entries", type=int, default=1000, help="entries in the digest")
    parser.add_argument("-o", "--output", required=True, help="the file to write")
    parser.add_argument("--seed", type=int, default=0, help="the paper universe")
    parser.add_argument("--first", type=int, default=0, help="number of the first new paper")
    parser.add_argument("--older", type=int, default=0,
                        help="papers 0..OLDER-1 exist already; repeats may re-type them")
    parser.add_argument("--retyped", type=float, default=0.05, help="share of re-typed repeats")
    parser.add_argument("--exact", type=float, default=0.02, help="share of exact repeats")
    parser.add_argument("--near", type=float, default=0.0, help="share of near copies (typos)")
    parser.add_argument("--plain", action="store_true", help="no 'Daily Papers', no metadata")
    parser.add_argument("--shape", choices=SHAPES, default="real",
                        help="real: seed-like titles, LaTeX abstracts, typo'd repeats; "
                             "friendly: the first generator")
    args = parser.parse_args(argv)
    set_shape(args.shape)
    write_digest(Path(args.output), args.entries, seed=args.seed, first=args.first,
                 older=args.older, retyped_share=args.retyped, exact_share=args.exact,
                 near_share=args.near, daily=not args.plain)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

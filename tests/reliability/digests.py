"""Generated digests for the reliability tests: many distinct papers, repeatable.

Paper ``i`` always has the same title and abstract, so the same paper can be
put in many digests; two different papers never share a normalised title.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from pathlib import Path

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
_WORDS = (
    "learning model data neural scaling language vision graph sparse dense retrieval "
    "attention transformer diffusion policy agent reward memory token context robust "
    "efficient benchmark dataset training inference latency quantized federated causal "
    "contrastive generative adversarial spectral kernel bayesian optimal transport "
    "reasoning planning program synthesis speech audio video image segmentation").split()
HEADER = ("new\n\nGet trending papers in your email inbox!\n\nSubscribe\n\nDaily Papers\n\n"
          "byAK and the research community\n\n")


def _code(i: int) -> str:
    """A word made of letters only, unique to ``i`` (so title keys never collide)."""
    letters = "bcdfghjklmnpqrstvwxz"
    out = ""
    i += 1
    while i:
        i, r = divmod(i - 1, len(letters))
        out = letters[r] + out
    return out.capitalize()


def title(i: int) -> str:
    rng = random.Random(i)
    words = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(3, 6)))
    return f"{_code(i)}: {words.capitalize()} for {rng.choice(_WORDS)} {rng.choice(_WORDS)}"


def abstract(i: int) -> str:
    rng = random.Random(-i - 1)
    sentences = []
    for _ in range(rng.randint(3, 6)):
        words = [rng.choice(_WORDS) for _ in range(rng.randint(8, 18))]
        sentences.append(" ".join(words).capitalize() + ".")
    return f"We study {_code(i)}. " + " ".join(sentences)


def entry(i: int, upvotes: int | None = None) -> str:
    rng = random.Random(i * 7 + 3)
    date = f"{MONTHS[rng.randrange(12)]} {rng.randint(1, 28)}, {rng.choice([2021, 2022, 2023])}"
    if upvotes:
        date += f" {upvotes}"
    return f"{title(i)}\n\n{abstract(i)}\n\n  • {rng.randint(1, 30)} authors\n·\n{date}\n\n"


def digest_text(papers: Iterable[int], day: int = 0, upvotes: int | None = None) -> str:
    """A "Daily Papers" digest holding the given papers, in that order."""
    date = f"{MONTHS[day % 12]} {day % 28 + 1}"
    return HEADER + f"{date}\n\n" + "".join(entry(i, upvotes) for i in papers)


def write_digest(path: Path, papers: Iterable[int], day: int = 0,
                 upvotes: int | None = None) -> Path:
    path.write_text(digest_text(papers, day, upvotes), encoding="utf-8")
    return path

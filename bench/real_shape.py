"""Titles and abstracts shaped like real ones, for ``generate.py``'s ``real`` shape.

Title words are drawn from the seeds' own titles (seeds/*.txt) as often as they occur
there, a quarter from a long Zipf tail of made-up terms; title lengths (in words) from
the seeds' titles; a fifth of the titles open with one of a few shared openings and
differ only in their last words ("Scaling Laws for X"). Abstracts are 1,500 to 2,600
characters of words drawn from the seeds' abstracts, with inline math, ``\\emph{}``,
``{\\em }`` and ``\\%`` here and there, and a number that makes each unique.
"""

from __future__ import annotations

import random
import re
from functools import cache
from pathlib import Path

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
SHARED = ("Scaling Laws for", "A Survey of", "Towards Efficient", "On the Limits of",
          "Rethinking", "Scaling Laws for Neural", "Efficient Training of",
          "Large Language Models for", "A Benchmark for", "Understanding")
MATH = (r"$O(n \log n)$", r"$\mathcal{O}(N^2)$", r"$\alpha = 0.#$", r"$k \le #$",
        r"$\ell_2$", r"$\times #$", r"$p < 0.0#$", r"$\sqrt{d}$", r"$10^{-#}$")


@cache
def _seeds() -> tuple[list[str], list[int], list[str], list[str]]:
    """Title words (with repeats), title lengths, 'Name:' openings, abstract words."""
    from paperdesk.core.model.digest import parse_digest

    titles: list[str] = []
    abstracts: list[str] = []
    for f in sorted(SEEDS.glob("*.txt")):
        for e in parse_digest(f.read_bytes(), f.name, 2025).entries:
            titles.append(e.title)
            abstracts.append(e.abstract or "")
    names = [t.split(":")[0] for t in titles if ":" in t and len(t.split(":")[0].split()) == 1]
    words = [w for t in titles for w in t.replace(":", "").split()]
    lengths = [len(t.split()) for t in titles]
    body = [w for a in abstracts for w in re.findall(r"[A-Za-z][\w\-']*", a)]
    return words, lengths, names, body


@cache
def _tail() -> tuple[list[str], list[float]]:
    """A long tail of 40,000 made-up terms (model, method and dataset names) with Zipf
    weights: a large library's titles use tens of thousands of words, most of them rare."""
    rng = random.Random(12345)
    syllables = "ka lo mi ra te su no vi de za po li fe gu xa bo re ti an el or um".split()
    words = sorted({"".join(rng.choice(syllables) for _ in range(rng.randint(2, 4))).capitalize()
                    + rng.choice(["", "", "-LM", "Net", "Bench", "-2", "Former"])
                    for _ in range(44_000)})[:40_000]
    rng.shuffle(words)
    total, cum = 0.0, []
    for rank in range(len(words)):
        total += 1 / (rank + 10)
        cum.append(total)
    return words, cum


def _words(rng: random.Random, k: int) -> list[str]:
    """``k`` title words: three in four from the seeds' titles, the rest from the tail."""
    seeds = _seeds()[0]
    tail, cum = _tail()
    return [rng.choice(seeds) if rng.random() < 0.75 else rng.choices(tail, cum_weights=cum)[0]
            for _ in range(k)]


def title(rng: random.Random) -> str:
    _, lengths, names, _ = _seeds()
    n = max(5, rng.choice(lengths))
    if rng.random() < 0.2:
        head = rng.choice(SHARED)
        return f"{head} {' '.join(_words(rng, max(3, n - len(head.split()))))}"
    text = " ".join(_words(rng, n))
    if rng.random() < 0.3:
        text = f"{rng.choice(names)}{rng.randint(2, 99)}: {text}"
    return text


def abstract(rng: random.Random, i: int) -> str:
    *_, body = _seeds()
    target = rng.randint(1500, 2600)
    out: list[str] = [f"We study case {i}."]
    size = len(out[0])
    while size < target:
        sentence = rng.choices(body, k=rng.randint(12, 30))
        sentence[0] = sentence[0].capitalize()
        roll = rng.random()
        k = rng.randrange(1, len(sentence))
        if roll < 0.25:
            sentence.insert(k, rng.choice(MATH).replace("#", str(rng.randint(1, 9))))
        elif roll < 0.35:
            sentence[k] = f"\\emph{{{sentence[k]}}}"
        elif roll < 0.42:
            sentence[k] = f"{{\\em {sentence[k]}}}"
        elif roll < 0.52:
            sentence.insert(k, f"by {rng.randint(2, 80)}\\%")
        text = " ".join(sentence) + "."
        out.append(text)
        size += len(text) + 1
    return " ".join(out)


GIVEN = ("José", "Zoë", "Łukasz", "Björn", "François", "Søren", "Ana", "Wei", "Priya", "Jan",
         "Mikołaj", "Thắng", "Hélène", "Jürgen", "Ólafur", "Chen", "María José", "Yuki")
FAMILY = ("Müller", "García", "Nguyễn", "Kowalczyk", "O'Brien", "Šimek", "Pérez", "Zhang",
          "Dvořák", "Ångström", "Smith", "Lefèvre", "Öztürk", "Li", "Çelik", "Sánchez")
PARTICLE = ("van der", "von", "de", "van", "de la", "di", "van den")
TEX_ACCENT = {"é": "\\'e", "ë": '\\"e', "Ł": "\\L{}", "ö": '\\"o', "ç": "\\c{c}", "ø": "\\o{}",
              "á": "\\'a", "ü": '\\"u', "í": "\\'i", "è": "\\`e", "Ó": "\\'O", "ł": "\\l{}",
              "Š": "\\v{S}", "ř": "\\v{r}", "Å": "\\AA{}", "Ö": '\\"O', "Ç": "\\c{C}"}


def _tex_name(text: str, rng: random.Random) -> str:
    """Accented letters as TeX writes them ({\\'e}) in most entries, as Unicode in others."""
    if rng.random() < 0.3:
        return text
    return "".join(f"{{{TEX_ACCENT[c]}}}" if c in TEX_ACCENT else c for c in text)


def bib_entry(i: int, rng: random.Random) -> str:
    """An arXiv-style @misc entry: 2-12 authors (accents, particles), a title with some
    math, a 150-word abstract with $...$, \\%, {\\em } and \\emph{}."""
    words = _seeds()[0]
    authors = []
    for _ in range(rng.randint(2, 12)):
        family = rng.choice(FAMILY)
        if rng.random() < 0.15:
            family = f"{rng.choice(PARTICLE)} {family}"
        given = rng.choice(GIVEN)
        if rng.random() < 0.5:
            authors.append(_tex_name(f"{family}, {given}", rng))
        else:
            authors.append(_tex_name(f"{given} {family}", rng))
    name = title(rng)
    if rng.random() < 0.2:
        name += f" with ${rng.choice('kNdn')}$-{rng.choice(words)}"
    text = abstract(rng, i)
    cut = text.find(" ", 1000)
    text = text[:cut if cut > 0 else len(text)] + "."
    year = 2015 + i % 10
    return (f"@misc{{arxiv{i},\n  title = {{{{{name}}}}},\n"
            f"  author = {{{' and '.join(authors)}}},\n"
            f"  year = {{{year}}},\n  eprint = {{{year % 100:02d}{(i % 12) + 1:02d}."
            f"{i % 100000:05d}}},\n  archivePrefix = {{arXiv}},\n"
            f"  primaryClass = {{cs.LG}},\n  abstract = {{{text}}}\n}}\n\n")

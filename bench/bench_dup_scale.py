"""How the duplicate scan's title comparison grows: 10k, 100k and 1M titles.

Titles of generate.py's real shape (real_shape.title), plus a re-typed copy (a typo, a
case or punctuation change: generate.retype(near(...)), normalised as the library
normalises titles) of one title in twenty. ``blocking.all_pairs`` on them, in this
process: CPU seconds, the number of title pairs compared (candidates) and the share of
the copies found beside their titles (recall). The titles are cached under bench/out/
(the million takes a few minutes to make).

    .venv/bin/python bench/bench_dup_scale.py [--sizes 10000 100000 1000000] [--runs 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import real_shape
from common import OUT, header, note
from generate import near, retype
from paperdesk.core.duplicates import blocking
from paperdesk.core.model.text import title_key


def titles(n: int) -> tuple[list[str], list[tuple[str, str]]]:
    """``n`` title keys (with the copies), and the (title, copy) pairs planted."""
    path = OUT / f"dup-titles-{n}.txt"
    if not path.exists():
        OUT.mkdir(parents=True, exist_ok=True)
        rng = random.Random(n)
        lines = []
        for i in range(n - n // 21):
            t = real_shape.title(random.Random(i))
            lines.append(f"{title_key(t)}\t")
            if i % 20 == 0:
                lines[-1] += title_key(retype(near(t, rng), rng))
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    keys, planted = [], []
    for line in path.read_text(encoding="utf-8").splitlines():
        key, copy = line.split("\t")
        keys.append(key)
        if copy and copy != key:
            keys.append(copy)
            planted.append((key, copy))
    return keys, planted


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    header("Duplicate scan's title comparison (blocking.all_pairs), real-shaped titles")
    for n in args.sizes:
        keys, planted = titles(n)
        keys.sort()
        cpu, counts, pairs = [], {}, set()
        for _ in range(args.runs if n < 1_000_000 else 1):
            start = time.process_time()
            pairs = blocking.all_pairs(keys, None, counts)
            cpu.append(time.process_time() - start)
        where: dict[str, int] = {}
        for k, key in enumerate(keys):
            where.setdefault(key, k)
        found = sum(tuple(sorted((where[a], where[b]))) in pairs for a, b in planted)
        seconds = statistics.median(cpu)
        note(f"{len(keys):>9,} titles: {seconds:6.2f} s CPU ({1e6 * seconds / len(keys):.1f} "
             f"us a title), {counts['candidates']:,} candidates "
             f"({counts['candidates'] / len(keys):.1f} a title), {counts['blocks']:,} blocks; "
             f"planted copies found {found:,} of {len(planted):,} "
             f"({100 * found / max(1, len(planted)):.2f}%)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

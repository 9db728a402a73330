"""Writing small digest files: the same papers over several days, their upvotes growing."""

from __future__ import annotations

from pathlib import Path

HEADER = ("new\n\nGet trending papers in your email inbox!\n\nSubscribe\n\nDaily Papers\n\n"
          "byAK and the research community\n\n")
MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()


def paper(n: int) -> tuple[str, str]:
    return (f"Paper {n}: {['Sparse', 'Dense', 'Linear', 'Deep', 'Wide'][n % 5]} "
            f"Attention for Task {n}",
            f"We study problem number {n} and show that method {n} works on benchmark {n}.")


def write_digest(folder: Path, name: str, month: int, day: int,
                 upvotes: dict[int, int | None], year: int = 2025) -> Path:
    """A Daily Papers digest dated ``month``/``day`` listing papers ``upvotes``
    keys, each with its upvote count (None: no metadata block)."""
    blocks = [f"{MONTHS[month - 1]} {day}"]
    for n, votes in upvotes.items():
        title, abstract = paper(n)
        blocks += [title, abstract]
        if votes is not None:
            blocks.append(f"  • {n % 7 + 2} authors\n·\n{MONTHS[month - 1]} {day}, {year} {votes}")
    path = folder / name
    path.write_text(HEADER + "\n\n".join(blocks) + "\n", encoding="utf-8")
    return path


def growing_digests(folder: Path, papers: int = 6, days: int = 4) -> list[Path]:
    """``days`` digests a week apart; paper n gains n * 3 upvotes a day."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for d in range(days):
        day = 1 + 7 * d
        out.append(write_digest(folder, f"daily-2025-03-{day:02d}.txt", 3, day,
                                {n: 5 + n * 3 * 7 * d for n in range(1, papers + 1)}))
    return out


def write_entries(folder: Path, name: str, month: int, day: int,
                  entries: list[tuple[str, str, int]], year: int = 2025) -> Path:
    """A Daily Papers digest of (title, abstract, upvotes) entries."""
    blocks = [f"{MONTHS[month - 1]} {day}"]
    for title, abstract, votes in entries:
        blocks += [title, abstract, f"  • 6 authors\n·\n{MONTHS[month - 1]} {day}, {year} {votes}"]
    path = folder / name
    path.write_text(HEADER + "\n\n".join(blocks) + "\n", encoding="utf-8")
    return path

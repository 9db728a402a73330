"""A real library holding re-typed repeats: papers imported twice with a typo in the title."""

from __future__ import annotations

from pathlib import Path

from paperdesk.core.library import Library
from paperdesk.core.model.digest import parse_digest


def retype(title: str) -> str:
    """The title as someone might type it again: one letter of its longest word dropped."""
    words = title.split(" ")
    i = max(range(len(words)), key=lambda n: len(words[n]))
    words[i] = words[i][:2] + words[i][3:]
    return " ".join(words)


def add_retyped(lib: Library, seed: Path, folder: Path, count: int = 3) -> list[list[int]]:
    """Import ``seed``, then a copy with ``count`` titles re-typed; the [original, repeat] ids."""
    assert lib.import_paths([seed])[0].status in ("imported", "already imported")
    text = seed.read_text(encoding="utf-8")
    entries = parse_digest(seed.read_bytes(), seed.name, 2024).entries
    chosen = [e for e in entries if len(e.title) >= 40][:count]
    assert len(chosen) == count
    for entry in chosen:
        text = text.replace(entry.title, retype(entry.title), 1)
    variant = folder / f"retyped-{seed.name}"
    variant.write_text(text, encoding="utf-8")
    assert lib.import_paths([variant])[0].status == "imported"
    pairs = []
    for entry in chosen:
        ids = [lib.db.execute("SELECT id FROM papers WHERE title = ?", [t]).fetchone()[0]
               for t in (entry.title, retype(entry.title))]
        pairs.append(ids)
    return pairs

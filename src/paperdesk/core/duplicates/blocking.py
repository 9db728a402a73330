"""Candidate pairs of similar titles, without comparing all pairs.

Each title is filed under its rarest words (those in at least two titles and
at most ``MAX_WORD_PAPERS``). Two titles that differ by a word or two (a typo,
a dropped article) still share most of their rarest words, so they meet under
one of them; titles are only compared within such a block and with their
neighbours in sorted order (and in the order of the titles read backwards, for
a typo in the first words). A block of more than ``BLOCK_CAP`` titles (a word
many titles share: "Scaling Laws for X") is not compared whole: each of its
titles meets the next ``BLOCK_WINDOW`` in the block's sorted order and in its
backwards order, so a title costs at most a fixed number of comparisons
whatever the vocabulary, and a scan grows linearly with the papers. All the
comparisons of a scan go to rapidfuzz in one ``cpdist`` call. Only pairs whose
titles come within ``TITLE_FLOOR`` are kept. The duplicate scan also asks for titles
with the same numbers (``same_numbers``): titles whose numbers differ are different
works ("Llama 2", "Llama 3"; ``text.title_numbers``), so a library of numbered
titles ("Part 1", "Part 2"...) is not judged pair by pair.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import chain
from typing import TYPE_CHECKING, Any

from paperdesk.core.db.database import Database, select_in
from paperdesk.core.model.jobs import CancelFlag, check_cancel, gc_paused
from paperdesk.core.model.text import TITLE_FLOOR as TITLE_FLOOR
from paperdesk.core.model.text import title_numbers

if TYPE_CHECKING:
    import numpy as np

RARE_WORDS = 3          # each title is filed under its three rarest words
MAX_WORD_PAPERS = 200   # words in more titles than this are too common to file under
WINDOW = 2              # sorted-neighbourhood window
SAMPLE_STEP = 8         # checking a few new titles: word counts from every 8th title
BLOCK_CAP = 16          # a block this large or smaller is compared whole
BLOCK_WINDOW = 6        # ... a larger one, each title with its next 6 (both orders)
_CHUNK = 200_000        # title pairs handed to rapidfuzz at once (bounds the memory)


def _add(i: int, j: int, pairs: set[tuple[int, int]]) -> None:
    if i != j:
        pairs.add((i, j) if i < j else (j, i))


def _rarest(words: list[str], df: Counter[str], place: dict[str, int], low: int, high: int,
            k: int) -> list[str]:
    """The ``k`` rarest words counted ``low``..``high`` times (ties broken by ``place``)."""
    out: list[str] = []
    for w in sorted(set(words), key=place.__getitem__):
        if df[w] > high or len(out) == k:
            break
        if df[w] >= low:
            out.append(w)
    return out


def _places(df: Counter[str], words: Iterable[str] | None = None) -> dict[str, int]:
    """Each word's position in one order by rarity (of ``words``, else of every word
    counted): ties broken the same for every title."""
    every = df.keys() if words is None else words
    # by the word, then (stable) by its count: the order of the key (count, word)
    return {w: n for n, w in enumerate(sorted(sorted(every), key=df.__getitem__))}


def _filed(tokens: list[list[str]]) -> list[np.ndarray]:
    """For each word some title files under, the (sorted) indexes of those titles.

    A title files under its RARE_WORDS rarest words among those in 2 to
    MAX_WORD_PAPERS titles, ties broken by the word itself. Done in numpy:
    a large library has millions of words.
    """
    import numpy as np

    df = Counter(chain.from_iterable(tokens))
    place = _places(df)
    counts = np.fromiter(map(df.__getitem__, place), np.int64, len(df))  # place is in its order
    sizes = np.fromiter(map(len, tokens), np.int64, len(tokens))
    words = np.fromiter(map(place.__getitem__, chain.from_iterable(tokens)), np.int64,
                        int(sizes.sum()))
    titles = np.repeat(np.arange(len(tokens)), sizes)
    keep = (counts[words] >= 2) & (counts[words] <= MAX_WORD_PAPERS)
    words, titles = words[keep], titles[keep]
    order = np.lexsort((words, titles))            # by title, rarest word first
    words, titles = words[order], titles[order]
    starts = np.flatnonzero(np.r_[True, titles[1:] != titles[:-1]])
    rank = np.arange(len(titles)) - np.repeat(starts, np.diff(np.r_[starts, len(titles)]))
    words, titles = words[rank < RARE_WORDS], titles[rank < RARE_WORDS]
    order = np.lexsort((titles, words))
    words, titles = words[order], titles[order]
    cuts = np.flatnonzero(words[1:] != words[:-1]) + 1
    return [g for g in np.split(titles, cuts) if len(g) > 1]


def all_pairs(keys: Sequence[str], cancel: CancelFlag | None = None,
              counts: dict[str, int] | None = None, *,
              same_numbers: bool = False) -> set[tuple[int, int]]:
    """Index pairs (i < j) of similar titles among ``keys`` (with ``same_numbers``, only
    those whose titles hold the same numbers); ``counts`` gets the number of blocks, of
    title pairs blocking met, and of those compared (``blocks``, ``candidates``,
    ``compared``).

    The cycle collector is paused meanwhile: the word lists of a million titles made
    each automatic collection walk them all again (a sixth of the scan's time at a
    million titles, half at ten thousand), and they hold no cycles."""
    with gc_paused():
        return _all_pairs(keys, cancel, counts, same_numbers)


def _all_pairs(keys: Sequence[str], cancel: CancelFlag | None,
               counts: dict[str, int] | None, same_numbers: bool) -> set[tuple[int, int]]:
    import numpy as np

    tokens = list(map(str.split, keys))
    filed = _filed(tokens) if tokens else []
    check_cancel(cancel)
    order = np.array(sorted(range(len(keys)), key=keys.__getitem__), np.int64)
    backwards = [k[::-1] for k in keys]
    backward = np.array(sorted(range(len(keys)), key=backwards.__getitem__), np.int64)
    left, right = _candidates(filed, _ranks(order), _ranks(backward))
    # the whole library's neighbours: WINDOW in title order and in backwards order
    lefts = [left, *(order[:-d] for d in range(1, WINDOW + 1) if d < len(order)),
             *(backward[:-d] for d in range(1, WINDOW + 1) if d < len(order))]
    rights = [right, *(order[d:] for d in range(1, WINDOW + 1) if d < len(order)),
              *(backward[d:] for d in range(1, WINDOW + 1) if d < len(order))]
    a, b = np.concatenate(lefts), np.concatenate(rights)
    a, b = np.minimum(a, b), np.maximum(a, b)
    a, b = a[a != b], b[a != b]  # a title with a word twice is twice in its block
    codes = np.sort(a * len(keys) + b)  # each pair once (sorting beats np.unique's hash)
    codes = codes[np.r_[True, codes[1:] != codes[:-1]]] if len(codes) else codes
    a, b = codes // len(keys), codes % len(keys)
    if counts is not None:
        counts.update(blocks=len(filed), candidates=len(a))
    check_cancel(cancel)
    if same_numbers:
        a, b = _same_numbers(a, b, keys)
    return _close_pairs(a, b, keys, counts)


def _same_numbers(a: np.ndarray, b: np.ndarray,
                  keys: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """The pairs (a[n], b[n]) whose titles hold the same numbers."""
    import numpy as np

    kinds: dict[tuple[str, ...], int] = {}
    kind = np.fromiter((kinds.setdefault(title_numbers(k), len(kinds)) for k in keys),
                       np.int64, len(keys))
    same = kind[a] == kind[b]
    return a[same], b[same]


def _ranks(order: np.ndarray) -> np.ndarray:
    """Each index's position in ``order``."""
    import numpy as np

    ranks = np.empty(len(order), np.int64)
    ranks[order] = np.arange(len(order))
    return ranks


def _candidates(filed: list[np.ndarray], ahead: np.ndarray,
                back: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Index arrays of the title pairs to compare in the blocks: every pair of a block of
    up to BLOCK_CAP titles; in a larger one, each title and the next BLOCK_WINDOW in the
    block's sorted order and in its backwards order (``ahead``, ``back``: each title's
    position in the order of the titles, and of the titles read backwards)."""
    import numpy as np

    lefts: list[np.ndarray] = [np.empty(0, np.int64)]
    rights: list[np.ndarray] = [np.empty(0, np.int64)]
    triangles: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    for rows in filed:
        size = len(rows)
        if size <= BLOCK_CAP:
            if size not in triangles:
                triangles[size] = np.triu_indices(size, 1)
            i, j = triangles[size]
            lefts.append(rows[i])
            rights.append(rows[j])
            continue
        fore = rows[np.argsort(ahead[rows], kind="stable")]
        rear = rows[np.argsort(back[rows], kind="stable")]
        for d in range(1, BLOCK_WINDOW + 1):
            lefts += [fore[:-d], rear[:-d]]
            rights += [fore[d:], rear[d:]]
    return np.concatenate(lefts).astype(np.int64), np.concatenate(rights).astype(np.int64)


def _close_pairs(a: np.ndarray, b: np.ndarray, keys: Sequence[str],
                 counts: dict[str, int] | None) -> set[tuple[int, int]]:
    """The pairs (a[n], b[n]) whose titles come within TITLE_FLOOR: one rapidfuzz call."""
    import numpy as np
    from rapidfuzz import fuzz, process

    pairs: set[tuple[int, int]] = set()
    titles = np.empty(len(keys), object)  # the keys of many indexes taken at once
    titles[:] = keys
    # ratio is 100 * (1 - indel distance / (m + n)) and the distance is at least
    # |m - n|: a pair whose lengths alone keep it under the floor is not compared
    lengths = np.fromiter(map(len, keys), np.int64, len(keys))
    m, n = lengths[a], lengths[b]
    may = 200 * np.minimum(m, n) >= (TITLE_FLOOR - 1e-6) * (m + n)
    a, b = a[may], b[may]
    if counts is not None:
        counts["compared"] = len(a)
    for start in range(0, len(a), _CHUNK):
        left, right = a[start:start + _CHUNK], b[start:start + _CHUNK]
        scores = process.cpdist(titles[left].tolist(), titles[right].tolist(), scorer=fuzz.ratio,
                                score_cutoff=TITLE_FLOOR, dtype=np.uint8, workers=-1)
        hit = np.nonzero(scores)[0]
        pairs.update(zip(left[hit].tolist(), right[hit].tolist(), strict=True))
    return pairs


def id_pairs(ids: Sequence[int], keys: Sequence[str], among: Sequence[int] | None,
             cancel: CancelFlag | None = None,
             counts: dict[str, int] | None = None) -> set[tuple[int, int]]:
    """Id pairs (a < b) of similar titles with the same numbers among papers ``ids``
    with titles ``keys``: those that may be one work; with ``among``, only the pairs
    involving one of those ids (``counts``: as ``all_pairs``)."""
    wanted = None if among is None else set(among)
    found: set[tuple[int, int]] = set()
    for i, j in all_pairs(keys, cancel, counts, same_numbers=True):
        a, b = ids[i], ids[j]
        if wanted is None or a in wanted or b in wanted:
            found.add((min(a, b), max(a, b)))
    return found


def _rows(db: Database, sql: str, values: Sequence[Any]) -> list[tuple[Any, ...]]:
    """``sql`` with ``{marks}`` run over ``values`` in chunks under SQLite's limit."""
    return list(select_in(db, sql, values))


def _fts_word(word: str) -> str:
    return 'title : "' + word.replace('"', '""') + '"'


def probe_pairs(db: Database, probe_ids: Sequence[int],
                cancel: CancelFlag | None = None) -> set[tuple[int, int]]:
    """Id pairs of similar titles with the same numbers that involve one of
    ``probe_ids``, read from SQLite.

    For checking a few new papers against a large library without reading it
    all: word counts come from a sample of titles (every ``SAMPLE_STEP``-th
    id), the papers sharing a rare word from the full-text index, and the
    neighbours in title order from the title index.
    """
    keys = dict(_rows(db, "SELECT id, title_key FROM papers WHERE id IN ({marks})", probe_ids))
    filed = _probe_words(db, keys)
    check_cancel(cancel)
    postings = _postings(db, filed)
    near = _neighbours(db, keys)
    check_cancel(cancel)
    missing = {j for js in [*postings.values(), *near.values()] for j in js} - keys.keys()
    keys.update(_rows(db, "SELECT id, title_key FROM papers WHERE id IN ({marks})",
                      sorted(missing)))
    # Each probe against every title it met (under a rare word or in title order),
    # in one call: the same pairs as block() per word, without a loop per pair.
    met: dict[int, set[int]] = {pid: set(cols) for pid, cols in near.items()}
    for w, rows in filed.items():
        cols = [j for j in postings.get(w, ()) if j in keys]
        for pid in rows:
            met[pid].update(cols)
    pairs: set[tuple[int, int]] = set()
    for pid, found in met.items():
        numbers = title_numbers(keys[pid])  # other numbers: another work
        close(pid, sorted(j for j in found if title_numbers(keys[j]) == numbers), keys, pairs)
    return pairs


def _probe_words(db: Database, keys: Mapping[int, str]) -> dict[str, list[int]]:
    """The probes filed under their rarest words: word -> probe ids.

    Word counts come from the sample (ids 1, 1 + SAMPLE_STEP, ...), read from the
    title index alone, never from the rows with their abstracts, and counted once
    per title, in C. Only the probes' own words are put in order of rarity.
    """
    sample = [k for (k,) in db.execute(
        "SELECT title_key FROM papers INDEXED BY papers_title_key "
        f"WHERE title_key IS NOT NULL AND id % {SAMPLE_STEP} = 1")]
    df = Counter(chain.from_iterable(map(set, map(str.split, sample))))
    place = _places(df, {w for k in keys.values() for w in k.split()})
    high = max(1, MAX_WORD_PAPERS // SAMPLE_STEP)
    filed: dict[str, list[int]] = {}
    for pid, key in keys.items():
        for w in _rarest(key.split(), df, place, 0, high, RARE_WORDS + 1):
            filed.setdefault(w, []).append(pid)
    return filed


def _postings(db: Database, words: Iterable[str]) -> dict[str, list[int]]:
    """The papers whose titles hold each word, from the full-text index; a word in
    more than MAX_WORD_PAPERS titles is left out."""
    postings: dict[str, list[int]] = {}
    for w in words:
        found = [r[0] for r in db.execute(
            "SELECT rowid FROM papers_fts WHERE papers_fts MATCH ? LIMIT ?",
            [_fts_word(w), MAX_WORD_PAPERS + 1])]
        if len(found) <= MAX_WORD_PAPERS:
            postings[w] = found
    return postings


# A title's neighbours in title order: WINDOW + 1 from its own key on, WINDOW before.
_NEAR = ("SELECT * FROM (SELECT id, title_key FROM papers WHERE title_key >= ? "
         "ORDER BY title_key LIMIT ?) UNION ALL "
         "SELECT * FROM (SELECT id, title_key FROM papers WHERE title_key < ? "
         "ORDER BY title_key DESC LIMIT ?)")


def _neighbours(db: Database, keys: dict[int, str]) -> dict[int, list[int]]:
    """Each probe's neighbours in title order, from the title index, in one query
    per probe; their keys are added to ``keys``."""
    near: dict[int, list[int]] = {}
    for pid, key in list(keys.items()):
        rows = db.execute(_NEAR, [key, WINDOW + 1, key, WINDOW]).fetchall()
        near[pid] = [i for i, _ in rows]
        keys.update(rows)
    return near


def close(i: int, cols: Sequence[int], keys: Mapping[int, str],
          pairs: set[tuple[int, int]]) -> None:
    """Add the pairs of ``i`` and ``cols`` whose titles come within TITLE_FLOOR."""
    from rapidfuzz import fuzz, process

    for _, _, n in process.extract(keys[i], [keys[j] for j in cols], scorer=fuzz.ratio,
                                   score_cutoff=TITLE_FLOOR, limit=None):
        _add(i, cols[n], pairs)

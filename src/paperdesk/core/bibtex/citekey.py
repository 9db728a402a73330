"""Citation keys: readable, ASCII, provisional until they leave PaperDesk.

The pattern is the first author's last name (else the organisation), the year
when it is known, and the first significant word of the title:
``vaswani2017attention``, ``deepseek2025ocr``; a paper with neither authors nor
organisation gets the title word and the year, ``polca2024``. Collisions get
``a``, ``b``, ... in the order the papers arrived. A key PaperDesk makes never
equals another key, even in case, since BibTeX treats ``Smith2020`` and
``smith2020`` as one key. A key a .bib file brings is kept exactly as written
unless another paper has it, even in another case, or it is retired (it left
PaperDesk for a paper that no longer has it: documents cite it for that work),
and the keys a file is about to bring are set aside (``expect``) before any key
is made for it, so that a made key never takes one of them.

A key is *provisional* while it has never left PaperDesk: when the metadata it
is made of changes (a corrected year, authors completed from Hugging Face) it
follows them (``refresh``). Once it leaves (exported to a file, copied, dragged
out, written to a kept-in-sync .bib) ``freeze`` marks it (``frozen_keys``)
and it never changes again. A key the user typed is never changed either (its
source is "user"), nor is a key a .bib file brought in.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from paperdesk.core.bibtex.names import family_name
from paperdesk.core.db import changes as ch
from paperdesk.core.db import papers_table, store
from paperdesk.core.db.database import Database, chunks, marks
from paperdesk.core.db.edits import KeySet
from paperdesk.core.model.clock import now
from paperdesk.core.model.errors import CitekeyError as CitekeyError
from paperdesk.core.model.sources import marked

if TYPE_CHECKING:
    from paperdesk.core.library import Library

# German umlauts transliterate by convention to two letters.
_GERMAN = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue",
                         "ß": "ss"})
_STOP = frozenset(
    "a an the on of in for to with and or via from by at as is are be do does how what why "
    "when which who can could should would will we our your towards toward into beyond "
    "revisiting rethinking".split())
_WORD = re.compile(r"[A-Za-z0-9]+")
_KEY_OK = re.compile(r"^[A-Za-z0-9_:.\-+/]+$")
MAX_KEY_LENGTH = 64
# BibTeX folds only ASCII letters, as SQLite's lower() and NOCASE do.
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
# Why a key cannot be claimed as written (``KeyAllocator.claim``).
HELD, CASE, RETIRED = "is taken", "is taken in another case", "is retired"


def ascii_text(text: str) -> str:
    """Transliterate to ASCII: ä -> ae, é -> e, ß -> ss, Ł -> L."""
    if text.isascii():
        return text
    from anyascii import anyascii  # loaded only when keys are made

    return anyascii(text.translate(_GERMAN))


def last_name(author: str) -> str:
    """The family name in "First Last", "Last, First" or "{Org Name}", without
    a "von" part: "Jan van der Berg" -> "Berg", "Niamh Ó Briain" -> "Ó Briain"."""
    author = author.strip()
    if author.startswith("{") and author.endswith("}"):
        return author.strip("{}")
    return family_name(author)


def _title_word(title: str) -> str:
    """The first word of the title that is not a stop word (else its first word),
    lower-cased; read only as far as that word."""
    first = ""
    for match in _WORD.finditer(ascii_text(title or "")):
        word = match.group().lower()
        if word not in _STOP:
            return word[:24]
        first = first or word
    return first[:24]


def base_key(paper: dict[str, Any], *, with_title: bool = True) -> str:
    """The key before any suffix, from a paper's fields: name + year + title word.

    ``with_title=False`` leaves the title word out where there is a name
    (``smith2020``): the author-year keys .bib files use.
    """
    authors = paper.get("authors") or []
    if isinstance(authors, str):
        authors = json.loads(authors or "[]")
    words: list[str] = []
    if authors and authors[0].lower() != "others":
        words = _WORD.findall(ascii_text(last_name(authors[0])))
    if not words and paper.get("organization"):
        words = _WORD.findall(ascii_text(paper["organization"]))[:1]
    year = paper.get("year") or ""
    word = _title_word(paper.get("title") or "")
    if not words:
        return f"{word or 'paper'}{year}"
    stem = "".join(words).lower()[:24] or "paper"
    return f"{stem}{year}{word if with_title else ''}"


@functools.lru_cache(maxsize=4096)
def suffix(n: int) -> str:
    """The n-th suffix in first-seen order: "", a ... z, aa ... zz, aaa ..."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    out = ""
    while n > 0:
        n, rest = divmod(n - 1, 26)
        out = letters[rest] + out
    return out


def fold(key: str) -> str:
    """A key as BibTeX compares keys: ASCII letters in lower case."""
    return key.translate(_ASCII_LOWER)


def valid_key(key: str) -> bool:
    return bool(key) and len(key) <= MAX_KEY_LENGTH and bool(_KEY_OK.match(key))


class KeyAllocator:
    """Hands out unique keys (ignoring case) against those already in the library, the
    retired ones and those expected; ``claim`` takes a key as written unless a paper has
    it, even in another case, or it is retired.

    SQL's lower() is their case fold (``fold``). The taken keys are read
    per base as bases come up (an index on lower(citekey) makes each read a
    short range), and all at once when an import brings many bases for the
    size of the library: one short read costs about as much as reading
    ``KEYS_PER_READ`` keys in one go.
    """

    EAGER_AFTER = 500  # bases read one by one before reading every key, at the least
    KEYS_PER_READ = 32

    def __init__(self, db: Database, *, expected: int = 0, top: int | None = None) -> None:
        """``expected``: how many keys the caller is about to take, if known; ``top``:
        the highest paper id, when the caller has read it (``papers_table.top_id``)."""
        self.cased = False  # the last key claimed has a twin in another case (``claim``)
        self._db = db
        self._taken: set[str] = set()  # every key known, folded
        self._exact: set[str] = set()  # the keys papers have, as written
        self._held: set[str] = set()  # the keys papers have, folded
        self._gone: set[str] = set()  # the retired keys, folded
        self._read_bases: set[str] = set()
        self._read_all = False
        self._next: dict[str, int] = {}
        size = papers_table.top_id(db) if top is None else top
        self._lazy_bases = max(self.EAGER_AFTER, size // self.KEYS_PER_READ)
        if expected >= self._lazy_bases:
            self._read_every_key()

    def _read_every_key(self) -> None:
        self._add(r[0] for r in self._db.execute(
            "SELECT citekey FROM papers WHERE citekey IS NOT NULL"))
        self._retired(self._db.execute("SELECT key FROM retired_keys"))
        self._read_all = True

    def _retired(self, rows: Iterable[tuple[str]]) -> None:
        """Keys that left PaperDesk for a paper that no longer has them (``retired_keys``):
        never made for another nor claimed from a .bib file, though one may be typed."""
        for key, in rows:
            self._gone.add(fold(key))
        self._taken |= self._gone

    def _add(self, keys: Iterable[str]) -> None:
        for key in keys:
            self._exact.add(key)
            folded = fold(key)
            self._held.add(folded)
            self._taken.add(folded)

    def _read(self, prefix: str) -> None:
        if self._read_all or prefix in self._read_bases:
            return
        if len(self._read_bases) >= self._lazy_bases:
            self._read_every_key()
            return
        # One JSON array, parsed in C: a base can have hundreds of keys.
        self._add(json.loads(self._db.execute(
            "SELECT json_group_array(citekey) FROM papers WHERE lower(citekey) >= ? "
            "AND lower(citekey) < ?", [prefix, prefix + "\x7f"]).fetchone()[0]))
        self._retired(self._db.execute(
            "SELECT key FROM retired_keys WHERE key >= ? AND key < ?", [prefix, prefix + "\x7f"]))
        self._read_bases.add(prefix)

    def take(self, paper: dict[str, Any], *, with_title: bool = True) -> str:
        base = base_key(paper, with_title=with_title)
        folded = fold(base)
        self._read(folded)
        # Resume where this base left off: a thousand papers sharing a base
        # cost a thousand probes, not half a million.
        n = self._next.get(folded, 0)
        while (folded + suffix(n)) in self._taken:
            n += 1
        key = base + suffix(n)
        self._taken.add(fold(key))
        self._next[folded] = n + 1
        return key

    def release(self, key: str) -> None:
        """A key given up (its paper takes another): free to be taken again."""
        self._taken.discard(fold(key))
        self._held.discard(fold(key))
        self._exact.discard(key)

    def expect(self, keys: Iterable[str]) -> None:
        """Keys about to be reserved (a file's keys, as written): no key made from
        now on equals one of them, even in case."""
        self._taken.update(fold(key) for key in keys)

    def claim(self, key: str, own: str | None = None, cased: bool = False) -> str | None:
        """Claim a key chosen elsewhere (a .bib file), exactly as written, for a paper
        whose key is ``own``: None when claimed, else why not: a paper has that very key
        (``HELD``) or another has it in another case (``CASE``: BibTeX reads
        ``Smith2020`` and ``smith2020`` as one key), or it is retired (``RETIRED``:
        ``\\cite{K}`` would print another work). ``cased``: a key another paper has in
        another case is claimed all the same (biber tells them apart; a .bib file's
        keys), and ``self.cased`` says whether it was."""
        folded = fold(key)
        self._read(folded)
        other_case = folded in self._held and not (own and fold(own) == folded)
        why = (HELD if key in self._exact else None if own and fold(own) == folded
               else CASE if other_case and not cased
               else RETIRED if folded in self._gone else None)
        self.cased = other_case and why is None
        if why is None:
            self._add((key,))
        return why


def key_maker(db: Database) -> Callable[[dict[str, Any], set[str]], str]:
    """What makes a key for a paper an undo puts back whose old key another paper keeps
    (``changes.restore``'s ``new_key``): the key it last left PaperDesk under if nobody
    holds it, else a new one that no paper has and that is none of the keys to avoid
    (those the undo is about to write back). One allocator for each set of keys to
    avoid, which it sets aside once.
    Given the same set again (the same object), it takes the set to have grown only by
    the keys it made (``paper_restore.free_keys``), so each key costs about the same,
    not as much as every key avoided (12,000 keys brought back took 77 s)."""
    made: list[tuple[set[str], KeyAllocator]] = []

    def new_key(paper: dict[str, Any], avoid: set[str]) -> str:
        if not made or made[0][0] is not avoid:
            keys = KeyAllocator(db)
            keys.expect(avoid)
            made[:] = [(avoid, keys)]  # the set is kept: its id names it while it lives
        own = _own_retired(db, paper.get("id"))
        if own is not None and own not in avoid and own.lower() not in avoid:
            made[0][1].expect([own])
            return own
        return made[0][1].take(paper)

    return new_key


def _own_retired(db: Database, paper_id: int | None) -> str | None:
    """A key that left PaperDesk as this paper's and that no paper holds now (it was
    exported while the paper was back, then the paper went again): the key its
    documents cite it by, better than a new one."""
    row = db.execute("SELECT r.key FROM retired_keys r WHERE r.paper_id = ? AND NOT EXISTS "
                     "(SELECT 1 FROM papers p WHERE lower(p.citekey) = lower(r.key)) "
                     "ORDER BY r.key LIMIT 1", [paper_id]).fetchone()
    return row[0] if row else None


def check_key(key: str) -> str:
    """The key, stripped, or a CitekeyError saying what is wrong with it."""
    key = str(key).strip()
    if not key:
        raise CitekeyError("a citation key cannot be empty")
    if len(key) > MAX_KEY_LENGTH:
        raise CitekeyError(f"a citation key is at most {MAX_KEY_LENGTH} characters")
    if not _KEY_OK.match(key):
        raise CitekeyError(f"citation key {key!r}: use only letters A-Z, digits and _ : . - + /")
    return key


def set_citekey(lib: Library, paper_id: int, key: str) -> ch.Changes:
    """Give a paper the key the user chose; unique, undoable, never changed again."""
    (pid,) = lib.require([paper_id])
    key = check_key(key)
    # lower() on both sides: the index of folded keys finds it (keys are ASCII)
    row = lib.db.execute("SELECT id, citekey FROM papers WHERE lower(citekey) = lower(?) "
                         "AND id != ?", [key, pid]).fetchone()
    if row:
        raise CitekeyError(f"citation key {key!r} is already used by paper {row[0]}")
    current = lib.db.execute("SELECT citekey FROM papers WHERE id = ?", [pid]).fetchone()[0]
    if current == key:
        return ch.NOTHING
    with lib.edit(f"Set citation key {key}", [ch.PAPERS], [pid]) as e:
        stamp = now()
        sources = lib.db.execute("SELECT sources FROM papers WHERE id = ?", [pid]).fetchone()[0]
        papers_table.set_citekey(lib.db, pid, key, marked(sources, ["citekey"], "user", stamp),
                                 stamp)
        e.result = KeySet(key)
    return e.changes


def freeze(db: Database, paper_ids: Iterable[int]) -> int:
    """Mark the keys of ``paper_ids`` frozen: they have left PaperDesk and must never
    change. A write of its own (or part of the caller's); how many keys it froze."""
    ids = list(dict.fromkeys(int(i) for i in paper_ids))
    frozen = 0
    with store.write(db):
        frozen = papers_table.freeze_keys(db, ids)
    return frozen


def _fits(key: str, base: str) -> bool:
    """Is ``key`` the base with a suffix of first-seen order (at most three letters)?"""
    key, base = key.casefold(), base.casefold()
    rest = key[len(base):]
    return key.startswith(base) and len(rest) <= 3 and (not rest or rest.isalpha())


def follows_metadata(row: dict[str, Any]) -> bool:
    """A provisional key that PaperDesk made: it may follow the paper's metadata."""
    if row.get("citekey_frozen"):
        return False
    sources = row.get("sources")
    if isinstance(sources, str):
        sources = json.loads(sources or "{}")
    source = (sources or {}).get("citekey", {}).get("source")
    return source not in ("user", "bib")


def refresh(db: Database, paper_ids: Iterable[int]) -> dict[int, tuple[str, str]]:
    """Re-make the provisional keys of ``paper_ids`` from their current metadata.

    Call inside the write that changed the metadata (so its undo covers the
    keys too). Frozen keys, keys the user typed and keys from a .bib file stay.
    Returns {paper id: (old key, new key)} for the keys that changed.
    """
    ids = sorted(dict.fromkeys(int(i) for i in paper_ids))
    rekeyed: dict[int, tuple[str, str]] = {}
    allocator = KeyAllocator(db, expected=len(ids))
    for part in chunks(ids):
        cursor = db.execute(
            "SELECT id, citekey, (id IN frozen_keys) AS citekey_frozen, sources, authors, "
            "organization, year, title "
            f"FROM papers WHERE id IN ({marks(len(part))}) ORDER BY id", part)
        names = [d[0] for d in cursor.description]
        for values in cursor.fetchall():
            row = dict(zip(names, values, strict=True))
            if not follows_metadata(row):
                continue
            old = row["citekey"]
            if old and _fits(old, base_key(row)):
                continue
            if old:
                allocator.release(old)
            new = allocator.take(row)
            if new == old:
                continue
            if old:
                # Free the old key first: a swap between two papers stays unique.
                papers_table.clear_citekey(db, row["id"])
            papers_table.set_provisional_key(db, row["id"], new)
            rekeyed[row["id"]] = (old, new)
    return rekeyed


def weak_provisional(db: Database, paper_ids: Iterable[int]) -> list[int]:
    """Of ``paper_ids``, those whose key would freeze weak: provisional (it still follows
    the metadata) and made without a name (no author, no organisation) or without a
    year, like ``actions`` or ``deepa``; completing them first may make them better."""
    weak: list[int] = []
    for part in chunks(list(dict.fromkeys(int(i) for i in paper_ids))):
        cursor = db.execute(
            "SELECT id, 0 AS citekey_frozen, sources, authors, organization, year FROM papers "
            f"WHERE id IN ({marks(len(part))}) AND id NOT IN frozen_keys AND (year IS NULL OR "
            "((authors IS NULL OR authors IN ('', '[]')) AND coalesce(organization, '') = ''))",
            part)
        names = [d[0] for d in cursor.description]
        weak += [row["id"] for row in (dict(zip(names, v, strict=True)) for v in cursor)
                 if follows_metadata(row)]
    return weak


def key_status(lib: Library, paper_id: int) -> dict[str, Any]:
    """A paper's key and whether it may still change: frozen, set by the user, provisional."""
    (pid,) = lib.require([paper_id])
    cursor = lib.db.execute("SELECT id, citekey, (id IN frozen_keys) AS citekey_frozen, "
                            "sources FROM papers "
                            "WHERE id = ?", [pid])
    row = dict(zip([d[0] for d in cursor.description], cursor.fetchone(), strict=True))
    sources = json.loads(row["sources"] or "{}")
    source = sources.get("citekey", {}).get("source")
    if row["citekey_frozen"]:
        state = "frozen"
    elif source in ("user", "bib"):
        state = "kept"
    else:
        state = "provisional"
    return {"id": pid, "citekey": row["citekey"], "frozen": bool(row["citekey_frozen"]),
            "state": state}

"""A paper's stable id (``papers.uid``): the name it has on every computer (pure).

The local ``papers.id`` is a row number: two libraries give the same paper different
numbers. The stable id is derived from what the paper *is*, so two computers that
make the same paper on their own give it the same id: its arXiv id (without the
version), else its DOI, else its normalised title (``title_key``: the same digest
entry on two computers has the same one), else its citation key (a .bib entry without
a title, imported from the same file). A paper with none of them gets a random id.

The derivation is frozen: every PaperDesk, of every version and on every computer,
must give the same paper the same id. Never change ``NAMESPACE``, the prefixes or the
order. A second paper of one library with the same basis (an unmerged duplicate)
takes the next of ``candidates``, so ids stay unique within a library.
"""

from __future__ import annotations

import hashlib
import re
import uuid
from collections.abc import Iterator

NAMESPACE = uuid.UUID("5b0d7e7c-3a55-4e61-9a8e-2f3c1d6a4b90")
_VERSION = re.compile(r"v\d+$")
_PREFIX = NAMESPACE.bytes


def name_uid(name: str) -> str:
    """``str(uuid.uuid5(NAMESPACE, name))``, the same text made without building a UUID
    object (a large import names 100,000 papers): the SHA-1 of the namespace and the
    name, its version (5) and variant bits set, written in the usual 8-4-4-4-12 form."""
    digest = bytearray(hashlib.sha1(_PREFIX + name.encode("utf-8"),
                                    usedforsecurity=False).digest()[:16])
    digest[6] = (digest[6] & 0x0F) | 0x50
    digest[8] = (digest[8] & 0x3F) | 0x80
    x = digest.hex()
    return f"{x[:8]}-{x[8:12]}-{x[12:16]}-{x[16:20]}-{x[20:]}"


def basis(arxiv_id: str | None, doi: str | None, title_key: str | None,
          key: str | None = None) -> str | None:
    """What a paper's stable id is made from, or None when it has nothing to go by."""
    if arxiv_id:
        return "arxiv:" + _VERSION.sub("", arxiv_id.strip()).lower()
    if doi:
        return "doi:" + doi.strip().lower()
    if title_key:
        return "title:" + title_key
    if key:
        return "key:" + key
    return None


def candidates(arxiv_id: str | None, doi: str | None, title_key: str | None,
               key: str | None = None) -> Iterator[str]:
    """The ids the paper may take, best first: the first one not yet taken is its id.
    Endless; random ids only when there is no basis."""
    return candidates_of(basis(arxiv_id, doi, title_key, key))


def nth(base: str, n: int) -> str:
    """The ``n``-th candidate of ``base`` (1 is the first)."""
    return name_uid(base if n == 1 else f"{base}#{n}")


def candidates_of(base: str | None, start: int = 1) -> Iterator[str]:
    """``candidates`` of a basis, from the ``start``-th on."""
    if base is None:
        while True:
            yield str(uuid.uuid4())
    n = start
    while True:
        yield nth(base, n)
        n += 1


def choose(arxiv_id: str | None, doi: str | None, title_key: str | None,
           key: str | None, taken: set[str]) -> str:
    """The first candidate not in ``taken`` (which it then joins)."""
    for uid in candidates(arxiv_id, doi, title_key, key):
        if uid not in taken:
            taken.add(uid)
            return uid
    raise AssertionError("unreachable: candidates never ends")

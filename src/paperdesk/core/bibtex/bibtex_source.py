""".bib entries kept as they were written, and written back unchanged.

An entry imported from a .bib file keeps, in ``papers.bib_source`` (JSON):

- ``type`` and ``key`` as written (``@Article{Knuth:1984,``);
- ``fields``: each field's name and raw value as written, delimiters, ``#``
  concatenations and ``@string`` names included, in the file's order;
- ``seen``: the column values (title, authors, year, ...) and tags the entry was
  read into when it was imported; of the abstract, which its column and ``fields``
  hold whole already, only ``abstract_digest``, a short digest (``abstract_digest()``;
  none when blank). Entries imported before keep the whole ``abstract`` there
  instead, which tells the two apart; both are read;
- ``names``: each display name of the author list -> that name as written;
- ``file``: the ``bib_files`` row holding the file's ``@string`` and
  ``@preamble`` definitions;
- ``sha``: a digest of type, key and fields, which finds the same entry again
  (``source_sha``: an entry kept without it has it worked out when it is needed);
- ``before`` / ``after``: the ``@comment`` blocks as written that stood before the
  entry (after it: those after the file's last entry, JabRef's ``jabref-meta``),
  written back in place.

On export a field is written as written unless the user changed what it was
read into since (the column differs from ``seen``; the abstract: its digest from
``abstract_digest``); only then does PaperDesk write that field itself, encoded
for LaTeX (``core/bibtex/latex.py``). Columns that were empty and are now filled (a
DOI found later) are added at the end.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from typing import Any

from orjson import dumps as _orjson_dumps
from orjson import loads as _orjson_loads

from paperdesk.core.bibtex.bib_repair import repair
from paperdesk.core.bibtex.latex import fix_chars
from paperdesk.core.model.text import tag_key

SEEN = ("title", "authors", "organization", "year", "published", "arxiv_id", "doi", "url",
        "abstract")
# in ``seen`` in place of the whole "abstract" that entries imported before keep
DIGEST = "abstract_digest"
# Which fields each group of columns was read from (and is written to when edited).
GROUPS: dict[str, tuple[str, ...]] = {
    "title": ("title",),
    "people": ("author",),
    "date": ("year", "month", "date"),
    "arxiv": ("eprint", "archiveprefix", "eprinttype", "primaryclass"),
    "doi": ("doi",),
    "url": ("url",),
    "abstract": ("abstract",),
    "keywords": ("keywords",),
}
_COLUMNS = {"title": ("title",), "people": ("authors", "organization"),
            "date": ("year", "published"), "arxiv": ("arxiv_id",), "doi": ("doi",),
            "url": ("url",), "abstract": ("abstract",)}
_GROUP_OF = {name: group for group, names in GROUPS.items() for name in names}


# json.dumps(..., ensure_ascii=False), without making an encoder for every call (json's
# public encoder; its C encoder made by hand would save a few microseconds an entry
# but lean on json's internals). Digests are of this text: it never changes.
_JSON = json_text = json.JSONEncoder(ensure_ascii=False).encode


def stored_json(value: Any) -> str:
    """The JSON of a kept entry as stored (``papers.bib_source``): orjson's, compact, a
    tenth of the time of json's for an entry with an abstract (a tenth of a .bib
    import's reading); what orjson refuses (a lone surrogate, an integer beyond 64
    bits) json writes. Only ever parsed, never digested: digests use ``json_text``.
    A kept entry holds text, integers of 64 bits (years, row ids), None, lists and
    objects: no floats (orjson writes an infinite one as null)."""
    try:
        return _orjson_dumps(value).decode()
    except TypeError:  # orjson.JSONEncodeError
        return _JSON(value)


def stored_utf8(value: Any) -> bytes:
    """``stored_json``'s text in UTF-8, as orjson writes it: what a reading process
    sends, and the import binds, without the text made between (a lone surrogate,
    which no file's text holds, raises)."""
    try:
        return _orjson_dumps(value)
    except TypeError:
        return _JSON(value).encode("utf-8")


def read_stored(text: str | bytes) -> Any:
    """``json.loads`` of a kept entry, by orjson (twice as fast; the export reads one
    for each entry); what it refuses, json reads, or refuses, as before. (An integer
    beyond 64 bits, which no kept entry holds, comes back as a float.)"""
    try:
        return _orjson_loads(text)
    except ValueError:  # orjson.JSONDecodeError
        return json.loads(text)


def entry_sha(raw_type: str, key: str, fields: Sequence[tuple[str, str]]) -> str:
    text = _JSON([raw_type.lower(), key, [(n.lower(), " ".join(v.split())) for n, v in fields]])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def make_source(raw_type: str, key: str, fields: Sequence[tuple[str, str]], names: dict[str, str],
                file_id: int | None, seen: dict[str, Any], tags: Sequence[str],
                sha: str | None = None) -> str:
    """``sha``: the entry's ``entry_sha``, when the caller has it already."""
    head, tail = source_parts(raw_type, key, fields, names, seen, tags,
                              sha or entry_sha(raw_type, key, fields))
    return (head + stored_utf8(file_id) + tail).decode("utf-8")


def source_sha(source: dict[str, Any]) -> str:
    """The kept entry's ``entry_sha``: as stored, or worked out from its type, key and
    fields (an entry imported into a library with no .bib entries keeps none)."""
    return source.get("sha") or entry_sha(source["type"], source["key"], source["fields"])


def source_parts(raw_type: str, key: str, fields: Sequence[tuple[str, str]],
                 names: dict[str, str], seen: dict[str, Any], tags: Sequence[str],
                 sha: str | None) -> tuple[bytes, bytes]:
    """``make_source``'s JSON before and after the file's id, in UTF-8, for a reader
    that does not know the id yet (``head + stored_utf8(file_id) + tail`` is the same
    text); ``sha``: the entry's ``entry_sha``, or None to keep none (``source_sha``
    works it out). Bytes: they go between processes and into SQLite as they are (a
    text of 2 KiB decoded and encoded again was a sixth of the rows' binding)."""
    head = stored_utf8({"type": raw_type, "key": key, "fields": fields,  # tuples: arrays
                        "names": names})
    tail = stored_utf8({**({"sha": sha} if sha else {}), "seen": {
        **_stored_seen(seen), "tags": sorted({tag_key(t) for t in tags})}})
    return head[:-1] + b',"file":', b"," + tail[1:]


def seen_values(row: dict[str, Any]) -> dict[str, Any]:
    """The SEEN columns of a paper row, as given to ``make_source`` (which stores the
    abstract as its digest)."""
    return {name: row.get(name) for name in SEEN}


def abstract_digest(value: Any) -> str | None:
    """What ``seen`` keeps of an abstract: None when blank (None, ""), else 16 hex
    digits of a blake2b digest of its ``_norm`` form (as JSON text, where that is a
    list). Digests compare as ``_differs`` compares abstracts, but for a collision
    (1 in 2**64) and for JSON-looking abstracts whose numbers are equal only as Python
    numbers ("[1]" and "[1.0]")."""
    norm = _norm(value)
    if norm is None:
        return None
    text = norm if type(norm) is str else _JSON(norm)
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()


def _stored_seen(seen: dict[str, Any]) -> dict[str, Any]:
    """``seen`` as stored: the abstract as its digest (none when blank)."""
    stored = {name: value for name, value in seen.items() if name != "abstract"}
    digest = abstract_digest(seen.get("abstract"))
    if digest is not None:
        stored[DIGEST] = digest
    return stored


def edited_groups(source: dict[str, Any], current: dict[str, Any], tags: Sequence[str]) -> set[str]:
    """The groups of fields whose columns changed since the entry was imported."""
    seen = source.get("seen", {})
    if _unchanged(seen, current):
        changed = set()
    else:
        whole = "abstract" in seen  # imported before digests: the whole abstract
        changed = {group for group, columns in _COLUMNS.items()
                   if (whole or group != "abstract")
                   and any(_differs(current.get(c), seen.get(c)) for c in columns)}
        if not whole and abstract_digest(current.get("abstract")) != seen.get(DIGEST):
            changed.add("abstract")
    then_tags = seen.get("tags", [])
    if (tags or then_tags != []) and sorted({tag_key(t) for t in tags}) != then_tags:
        changed.add("keywords")
    return changed


def _unchanged(seen: dict[str, Any], current: dict[str, Any]) -> bool:
    """Whether every SEEN column is exactly as seen (authors: ``seen``'s list as the
    column's JSON; the abstract: its digest, unless ``seen`` has the whole abstract).
    Only a shortcut: False sends the caller to compare group by group."""
    then = list(map(seen.get, SEEN))
    if type(then[1]) is list:  # authors, SEEN[1]
        then[1] = _JSON(then[1])
    now = list(map(current.get, SEEN))
    if "abstract" not in seen:  # abstract, SEEN[8]
        then[8], now[8] = seen.get(DIGEST), abstract_digest(now[8])
    return then == now


def _differs(now: Any, then: Any) -> bool:
    if now == then:
        return False
    if isinstance(then, list) and isinstance(now, str) and now == _JSON(then):
        return False  # a list column as it was written from ``seen`` (authors)
    return _norm(now) != _norm(then)


def _norm(value: Any) -> Any:
    if isinstance(value, str) and value.startswith("["):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value if value not in ("", "[]") else None


def source_entry(source: dict[str, Any], key: str, current: dict[str, Any], tags: list[str],
                 notes: list[str], written: Callable[[set[str]], dict[str, list[str]]],
                 note_lines: Callable[[str], list[str]], *, ascii: bool,
                 field: Callable[[str, str], str] = repair, ids: str | None = None) -> str:
    """The entry as written, with the groups the user edited written by PaperDesk.

    ``written(groups)`` gives, for each group, the lines PaperDesk writes for it
    (``"\\tname = value,"``); ``note_lines(field)`` the lines of the user's notes;
    ``field(name, raw)`` each field of the file as it goes out (``repair``ed); ``ids``
    the keys it is also known by, first, unless the file gave it an ``ids`` field.
    """
    edited = edited_groups(source, current, tags)
    fields = source["fields"]
    lines = [f"@{source['type']}{{{key},"]
    if ids and not any(name.lower() == "ids" for name, _ in fields):
        lines.append("\tids = {" + ids + "},")
    if edited:
        _edited_lines(lines, fields, edited, written(edited), ascii=ascii, field=field)
    elif ascii:  # each field as written (repaired), in one pass
        lines += [f"\t{name} = {fix_chars(field(name, raw), True)}," for name, raw in fields]
    else:
        lines += [f"\t{name} = {field(name, raw)}," for name, raw in fields]
    if notes:
        names = {name.lower() for name, _ in fields}
        lines.extend(note_lines("paperdesk-notes" if "annote" in names else "annote"))
    if len(lines) > 1:
        lines[-1] = lines[-1][:-1]
    text = "\n".join(lines) + "\n}\n"
    if "before" in source or "after" in source:
        text = ("".join(c + "\n\n" for c in source.get("before", ())) + text
                + "".join("\n" + c + "\n" for c in source.get("after", ())))
    return text


def _edited_lines(lines: list[str], fields: Sequence[tuple[str, str]], edited: set[str],
                  fresh: dict[str, list[str]], *, ascii: bool,
                  field: Callable[[str, str], str] = repair) -> None:
    """The fields' lines added to ``lines``: the ``edited`` groups' from ``fresh``
    (PaperDesk's), in place of the first of their fields, the others as written."""
    present = {_GROUP_OF.get(name.lower()) for name, _ in fields}
    added = edited - present  # what the file lacked and the paper has now (a DOI found later)
    done: set[str] = set()
    for name, raw in fields:
        group = _GROUP_OF.get(name.lower())
        if group in edited:
            if group not in done:
                done.add(group)
                lines.extend(fresh.get(group, ()))
            continue
        value = field(name, raw)
        value = fix_chars(value, True) if ascii else value
        lines.append(f"\t{name} = {value},")
    for group in GROUPS:
        if group in added and group not in done:
            lines.extend(fresh.get(group, ()))


def header_blocks(files: Sequence[tuple[str, str]], *, ascii: bool) -> list[str]:
    """``@preamble`` then ``@string`` blocks of the files (JSON preambles, JSON strings),
    each name once (names ignore case): within a file its last definition, as BibTeX
    and biber read the file; a name another file defined before keeps that file's."""
    preambles: list[str] = []
    strings: dict[str, str] = {}
    for preamble_json, strings_json in files:
        for value in json.loads(preamble_json):
            if value not in preambles:
                preambles.append(value)
        last: dict[str, str] = {}
        for name, value, *word in json.loads(strings_json):
            last.pop(name.lower(), None)  # the last definition, where the name came last
            last[name.lower()] = f"@{word[0] if word else 'string'}{{{name} = {value}}}\n"
        for folded, block in last.items():
            strings.setdefault(folded, block)
    blocks = [f"@preamble{{{value}}}\n" for value in preambles] + list(strings.values())
    return [fix_chars(b, True) for b in blocks] if ascii else blocks

"""Where each field of a paper came from, and when.

``papers.sources`` holds JSON: field -> {"source": ..., "at": "YYYY-MM-DD..."}.
Sources are ``digest`` (a digest file, or daily papers fetched from the Hub),
``bib`` (a .bib file), ``hf`` (completed from Hugging Face), ``arxiv`` and
``crossref`` (a paper added by its identifier: arXiv's API, Crossref), ``link`` (what
the identifier itself gave, for a paper no service could describe: it is incomplete
until completed), ``pdf`` (what a PDF attached without a paper said of itself:
incomplete too) and ``user`` (typed by the user). A value the user typed is never
overwritten by anything else.
Papers written before sources were recorded get theirs from where the paper
came from (a digest sighting, else a .bib file) and when it was added.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

LABELS = {"digest": "digest", "bib": ".bib file", "hf": "Hugging Face", "user": "you",
          "arxiv": "arXiv", "crossref": "Crossref", "link": "the link it was added by",
          "pdf": "the PDF it was added from"}
# The fields whose source is shown and exported in JSON.
TRACKED = ("title", "abstract", "authors", "organization", "published", "year", "arxiv_id",
           "doi", "url", "github", "project_page", "upvotes", "citekey")


def parse(value: str | dict | None) -> dict[str, dict[str, str]]:
    if isinstance(value, dict):
        return value
    try:
        data = json.loads(value or "{}")
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def marked(value: str | dict | None, fields: Iterable[str], source: str, at: str) -> str:
    """``value`` with ``fields`` recorded as coming from ``source`` at ``at``."""
    data = dict(parse(value))
    for name in fields:
        data[name] = {"source": source, "at": at}
    return json.dumps(data, sort_keys=True)


def typed_by_user(value: str | dict | None, field: str) -> bool:
    return parse(value).get(field, {}).get("source") == "user"


_EMPTY: tuple[object, ...] = (None, "", [], 0)  # values that are no value (a 0 of upvotes is one)


def of_paper(row: dict[str, Any]) -> dict[str, dict[str, str]]:
    """Every filled tracked field of a paper row -> its source, with the defaults."""
    authors = row.get("authors")
    values = tuple(row.get(name) if name != "authors" else
                   (json.loads(authors) if isinstance(authors, str) else authors)
                   for name in TRACKED)
    return of_fields(row.get("sources"), row.get("seen_count"), row.get("added"), values)


def of_fields(recorded: str | dict | None, seen_count: Any, added: Any,
              values: Iterable[Any]) -> dict[str, dict[str, str]]:
    """``of_paper`` of a row given as its ``sources``, ``seen_count``, ``added`` and
    the values of ``TRACKED`` in that order. Every default is the one dict."""
    known = parse(recorded) if recorded else {}
    fallback = {"source": "digest" if seen_count else "bib", "at": added or ""}
    filled = [name for name, value in zip(TRACKED, values, strict=True)
              if value not in _EMPTY or (value == 0 and name == "upvotes")]
    if not known:
        return dict.fromkeys(filled, fallback)
    return {name: known.get(name, fallback) for name in TRACKED
            if name in known or name in filled}


def describe(entry: dict[str, str]) -> str:
    """"Hugging Face, 2026-11-23"."""
    label = LABELS.get(entry.get("source", ""), entry.get("source", "?"))
    day = (entry.get("at") or "")[:10]
    return f"{label}, {day}" if day else label

"""The grammar of the identifiers PaperDesk keeps: arXiv ids, DOIs, URLs, GitHub
repositories and project pages (pure).

An identifier enters the library only when it matches (the Hub's records, a .bib
file's ``eprint``/``doi``/``url`` read into PaperDesk's columns); one that does not
is refused and reported. None of them can hold a brace, a backslash, white space
or a lone ``%``, so a field written from one cannot close its braces or run
anything (docs/latex-safety.md).
"""

from __future__ import annotations

import re

ARXIV = re.compile(r"\d{4}\.\d{4,5}(?:v\d+)?|[a-z]+(?:-[a-z]+)*(?:\.[A-Z]{2})?/\d{7}(?:v\d+)?")
# 10.<registrant>/<suffix>: printable ASCII without white space, braces, backslash,
# double quote, ^ or backquote (^^5c is a backslash to TeX); a % only as %XX.
DOI = re.compile(r"10\.\d+(?:\.\d+)*/(?:[A-Za-z0-9\-._;()/:<>\[\]+#*@!$&',=~?|]"
                 r"|%[0-9A-Fa-f]{2})+")
# RFC 3986 characters (letters of other scripts allowed), % only as %XX; a host first.
_URL_CHAR = r"(?:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2}|[^\x00-\x7f\s])"
URL = re.compile(r"(?:https?|ftp)://(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2}"
                 r"|[^\x00-\x7f\s])+" + f"(?:[/?#]{_URL_CHAR}*)?")
GITHUB = re.compile(r"https?://(?:www\.)?github\.com/[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})"
                    r"/[A-Za-z0-9._-]{1,100}" + f"(?:[/?#]{_URL_CHAR}*)?")
_NAMES = {"arxiv_id": "an arXiv id", "doi": "a DOI", "url": "a URL",
          "github": "a GitHub repository", "project_page": "a project page URL"}
_GRAMMARS = {"arxiv_id": ARXIV, "doi": DOI, "url": URL, "github": GITHUB, "project_page": URL}
_SHAPES = {"arxiv_id": "2401.12345, 2401.12345v2 or hep-th/9901001",
           "doi": "10.NNNN/suffix, without spaces, braces or backslashes",
           "url": "http(s)://host/path, without spaces, braces or backslashes",
           "github": "https://github.com/owner/repository",
           "project_page": "http(s)://host/path, without spaces, braces or backslashes"}


def valid(kind: str, value: str | None) -> bool:
    """Whether ``value`` is an identifier of ``kind`` (arxiv_id, doi, url, github,
    project_page); None and "" are not."""
    if not value or len(value) > 2000:
        return False
    return _GRAMMARS[kind].fullmatch(value) is not None


def problem(kind: str, value: str | None) -> str | None:
    """Why ``value`` is refused (a phrase: "'x}' is not a DOI (...)"), or None when it
    is fine or absent."""
    if value is None or valid(kind, value):
        return None
    shown = value if len(value) <= 80 else value[:77] + "..."
    return f"{shown!r} is not {_NAMES[kind]} ({_SHAPES[kind]})"


def problems(values: dict[str, str | None]) -> dict[str, str]:
    """``problem`` of each (kind, value); only those refused."""
    return {kind: why for kind, value in values.items()
            if (why := problem(kind, value)) is not None}


_URL_ESCAPES = re.compile(r"\\([%_#&~$])")


def from_latex(value: str) -> str:
    r"""An identifier as a .bib field may write it: ``\url{...}`` unwrapped, LaTeX's
    escapes of ``% _ # & ~ $`` undone (``10.1000/a\_b`` is ``10.1000/a_b``)."""
    value = value.strip()
    if value.startswith("\\url{") and value.endswith("}"):
        value = value[5:-1].strip()
    if "\\" in value:
        value = _URL_ESCAPES.sub(r"\1", value)
    return value

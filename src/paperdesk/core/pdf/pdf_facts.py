"""What attaching needs to know of a PDF: its page count, its metadata, the text of its
first page, all read in the PDF sandbox (``sandbox.PdfSandbox``: a child process with
a deadline and a memory cap, so a hostile file costs one line, never the program), and
the identifiers they name (pure).

A PDF names its paper by an arXiv id (the stamp arXiv prints down the first page's
margin, ``arXiv:2401.12345v2 [cs.CL] 3 Jan 2024``, an ``arxiv.org/abs/`` link) or a
DOI (``doi:10.1145/...``, ``https://doi.org/...``, ``DOI 10.1145/...``), in its
metadata or on its first page; a bare number is never taken for an arXiv id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paperdesk.core.model import links

DEADLINE_S = 20.0  # reading one PDF's facts, at most
_ARXIV = re.compile(
    r"(?i)(?:arxiv\s*:\s*|arxiv\.org/(?:abs|pdf)/)"
    r"(\d{4}\.\d{4,5}(?:v\d+)?|[a-z]+(?:-[a-z]+)*(?:\.[a-z]{2})?/\d{7}(?:v\d+)?)")
_DOI = re.compile(r"(?i)(?:\bdoi\s*[:=]?\s*|doi\.org/)?\b(10\.\d{4,9}/[^\s\"<>{}\\]+)")
_TRAILING = ".,;:)]}'"
_META_TITLE_JUNK = re.compile(r"(?i)^(untitled|microsoft word|title|none|\S+\.(dvi|tex|"
                              r"docx?|pdf|ps))\b")


@dataclass
class PdfFacts:
    pages: int
    metadata: dict[str, str]
    first_page: str
    ids: list[links.Link] = field(default_factory=list)

    @property
    def title(self) -> str | None:
        """The paper's title as the PDF gives it: its metadata's, else the first line of
        its first page that reads as one."""
        meta = " ".join(str(self.metadata.get("Title", "")).split())
        if 3 <= len(meta) <= 300 and not _META_TITLE_JUNK.match(meta):
            return meta
        for line in self.first_page.splitlines():
            line = " ".join(line.split())
            if (len(line) >= 8 and len(line.split()) >= 2 and not _ARXIV.search(line)
                    and sum(c.isalpha() for c in line) > len(line) / 2):
                return line[:300]
        return None

    @property
    def authors(self) -> list[str]:
        """The metadata's Author, split on commas, semicolons and " and "."""
        text = " ".join(str(self.metadata.get("Author", "")).split())
        return [a.strip() for a in re.split(r"\s*(?:[;,]|\band\b)\s*", text) if a.strip()]


def identifiers_in(*texts: str) -> list[links.Link]:
    """The arXiv ids, then the DOIs, the texts name, each once, in the order found."""
    found: list[links.Link] = []
    for pattern in (_ARXIV, _DOI):
        for text in texts:
            for match in pattern.finditer(text):
                value = match.group(1).rstrip(_TRAILING)
                try:
                    link = links.parse(value if pattern is _DOI else f"arXiv:{value}")
                except links.LinkError:
                    continue
                if all((f.kind, f.value) != (link.kind, link.value) for f in found):
                    found.append(link)
    return found


def read_facts(sandbox: Any, path: Path) -> PdfFacts:
    """The facts of the PDF at ``path``, read in ``sandbox`` (a ``PdfSandbox``); its
    ``PdfError`` (one line naming the file) when the file cannot be read."""
    info = sandbox.info(path, deadline=DEADLINE_S)
    pages = int(info["pages"])
    first = sandbox.text(path, [0], deadline=DEADLINE_S)[0] if pages else ""
    metadata = {str(k): str(v) for k, v in dict(info.get("metadata") or {}).items()}
    facts = PdfFacts(pages, metadata, first)
    facts.ids = identifiers_in(*metadata.values(), first)
    return facts

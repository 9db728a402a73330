"""``export --files``: each entry's PDFs in JabRef's ``file`` field.

JabRef writes a paper's files as ``file = {description:path:type;...}``, with ``\\``,
``:`` and ``;`` inside a part escaped by a backslash (its ``FileFieldWriter``); Zotero's
Better BibTeX and JabRef read it back. Each path is absolute: the copy in the files
folder beside the library, or the user's own linked file. A path holding a brace
(which would end the field) is left out.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

from paperdesk.core.db import attachments_table
from paperdesk.core.db.database import Database, select_in


def _escaped(part: str) -> str:
    return part.replace("\\", "\\\\").replace(":", "\\:").replace(";", "\\;")


def field_value(library: Path, rows: list[dict[str, Any]]) -> str | None:
    """The ``file`` field's value for one paper's attachments (None: none to write)."""
    parts = []
    for row in rows:
        path = str(attachments_table.file_path(library, row))
        if "{" in path or "}" in path:
            continue
        parts.append(f":{_escaped(path)}:PDF")
    return ";".join(parts) or None


def by_key(db: Database, library: Path, keys: list[str] | None = None) -> dict[str, str]:
    """citation key -> the ``file`` field of its paper's PDFs, for the papers that have
    some (those of ``keys`` when given). A key two papers keep (``key_shared``) names
    neither: their entries go without the field (the export says the key is repeated)."""
    sql = ("SELECT p.citekey, a.id FROM attachments a JOIN papers p ON p.id = a.paper_id "
           "WHERE p.citekey IS NOT NULL AND p.key_shared = 0")
    pairs = (select_in(db, sql + " AND p.citekey IN ({marks})", keys) if keys is not None
             else db.execute(sql + " ORDER BY a.paper_id, a.id").fetchall())
    grouped: dict[str, list[dict[str, Any]]] = {}
    for key, aid in pairs:
        row = attachments_table.get(db, aid)
        if row is not None:
            grouped.setdefault(key, []).append(row)
    return {k: v for k, rows in grouped.items() if (v := field_value(library, rows))}


def with_files(entries: Iterator[Any], fields: dict[str, str]
               ) -> Generator[Any, None, None]:
    """The BibTeX entries (text, or UTF-8 bytes) with a ``file`` field added to each
    whose key ``fields`` names."""
    try:
        for entry in entries:
            binary = isinstance(entry, bytes)
            text = entry.decode() if binary else entry
            head = text.split("{", 1)[1].split(",", 1)[0].strip() if "{" in text else ""
            value = fields.get(head)
            if value is not None and text.endswith("\n}\n"):
                text = text[:-3] + f",\n\tfile = {{{value}}}\n}}\n"
            yield text.encode() if binary else text
    finally:  # the export's processes and view end with it
        close = getattr(entries, "close", None)
        if close is not None:
            close()

"""A library with PDFs attached, for the tests of the full text (core, CLI, window).

``attach_pdf(lib, paper_id, pages)`` writes a PDF of ``pages`` into the library's
files folder (``NAME.files/``) and records it as a stored attachment of the paper,
through the attachments table's own writer, as ``pdf attach`` does.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from paperdesk.core.db import attachments_table
from paperdesk.core.db import changes as ch
from tests.pdf_files import pdf_bytes


def files_folder(lib) -> Path:
    return lib.path.with_name(lib.path.stem + ".files")


def attach_bytes(lib, paper_id: int, data: bytes, name: str) -> int:
    folder = files_folder(lib) / f"p{paper_id}"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data)
    row = {"paper_id": paper_id, "kind": "stored", "path": f"p{paper_id}/{name}",
           "name": name, "sha256": hashlib.sha256(data).hexdigest(), "size": len(data),
           "added_at": "2026-01-01T00:00:00Z"}
    with lib.edit(f"Attach {name}", {ch.ATTACHMENTS}, [paper_id]):
        return attachments_table.insert(lib.db, row)


def attach_pdf(lib, paper_id: int, pages: list[list[str]], name: str = "paper.pdf") -> int:
    return attach_bytes(lib, paper_id, pdf_bytes(pages), name)


def paper_ids(lib, n: int) -> list[int]:
    ids = [r[0] for r in lib.db.execute("SELECT id FROM papers ORDER BY id LIMIT ?", [n])]
    assert len(ids) == n
    return ids

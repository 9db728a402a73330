"""The files a share's folder holds: each one whole update (or compacted snapshot) of
the shared document, behind a one-line header that says what it is.

    PDSHARE {"format": 1, "kind": "update", "device": ..., "size": ..., "sha256": ...}
    <the Loro bytes>

A file whose bytes do not match its header is torn or still arriving (``Torn``): it
is skipped and read again once whole. A file of a later format than this PaperDesk
reads (``Newer``) is refused, never half understood. Files are written whole under a
temporary name and renamed (``files.atomic_write``), so a sync tool never copies half
of one of ours.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from paperdesk.core.db.files import atomic_write

FORMAT = 1
MAGIC = b"PDSHARE "
UPDATE_SUFFIX = ".pdshare"
SNAPSHOT_SUFFIX = ".pdsnap"
_MOST_HEADER = 1 << 20


class Torn(Exception):
    """The file is not whole (yet)."""


class Newer(Exception):
    """The file was written by a newer PaperDesk."""


def pack(data: bytes, **header: Any) -> bytes:
    head = {"format": FORMAT, **header, "size": len(data),
            "sha256": hashlib.sha256(data).hexdigest()}
    return MAGIC + json.dumps(head, sort_keys=True).encode() + b"\n" + data


def unpack(raw: bytes) -> tuple[dict[str, Any], bytes]:
    """(the header, the document's bytes) of a file's bytes."""
    if not raw.startswith(MAGIC):
        raise Torn("not a PaperDesk share file")
    end = raw.find(b"\n", 0, _MOST_HEADER)
    if end < 0:
        raise Torn("its header is cut off")
    try:
        head = json.loads(raw[len(MAGIC):end])
        fmt = int(head["format"])
    except (ValueError, KeyError, TypeError):
        raise Torn("its header is unreadable") from None
    if fmt > FORMAT:
        raise Newer(f"written by a newer PaperDesk (share format {fmt}; this one reads "
                    f"{FORMAT}): update PaperDesk on this computer")
    data = raw[end + 1:]
    if len(data) != head.get("size") or hashlib.sha256(data).hexdigest() != head.get("sha256"):
        raise Torn(f"{len(data):,} of its {head.get('size', 0):,} bytes, or not the ones "
                   "it names")
    return head, data


def write(path: Path, data: bytes, **header: Any) -> str:
    """Write one file whole; its SHA-256."""
    raw = pack(data, **header)
    with atomic_write(path, kind="share") as temp:
        temp.write_bytes(raw)
    return hashlib.sha256(raw).hexdigest()


def is_ours(name: str) -> bool:
    """A share file, a sync tool's conflict copy of one included; never a temporary."""
    return not name.startswith(".") and (UPDATE_SUFFIX in name or SNAPSHOT_SUFFIX in name)

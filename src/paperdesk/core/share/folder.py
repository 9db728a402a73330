"""A share's folder: this computer's updates written into it, everyone's read out of it.

Each exchange that changed something writes one update file named by this computer's
device id, a counter and a few random letters (``DEVICE-000042-1f2e3d4c.pdshare``):
an exchange killed before its commit never has its file overwritten by the next one.
Every file not read yet is imported; what is torn, still arriving, or from a newer
PaperDesk is skipped with one line and read at a later exchange. When many files are
there, a compacted snapshot of
the whole document is written (``DEVICE-000042.pdsnap``, naming the files it holds):
a new computer reads the newest snapshot and only the files it does not hold.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import loro

from paperdesk.core.share import files

# Update files beyond the newest snapshot before an exchange writes a new snapshot.
SNAPSHOT_EVERY = 200


@dataclass
class Read:
    imported: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # one line each: name and why
    waiting: list[str] = field(default_factory=list)  # imported, missing what came before
    devices: dict[str, Any] = field(default_factory=dict)  # device -> its newest file
    # An empty document made from one whole document alone (a new computer joining):
    # its bytes, which the library keeps as they are (exported again, 4 s at 100,000
    # papers); None otherwise (``read_new`` says which).
    whole: bytes | None = field(default=None, repr=False)

    def took(self, name: str, data: bytes) -> None:
        """File ``name`` (its document's bytes ``data``) was imported whole."""
        self.imported.append(name)
        self.whole = data if len(self.imported) == 1 else None


def names(folder: Path) -> list[str]:
    try:
        return sorted(n for n in os.listdir(folder) if files.is_ours(n))
    except FileNotFoundError:
        return []


def write_update(folder: Path, device: str, counter: int, data: bytes) -> tuple[str, str]:
    """Write one update file whole; its name and the SHA-256 of its bytes."""
    name = f"{device}-{counter:06d}-{os.urandom(4).hex()}{files.UPDATE_SUFFIX}"
    return name, files.write(folder / name, data, kind="update", device=device)


def read_new(folder: Path, doc: loro.LoroDoc, read: dict[str, str]) -> Read:
    """Import every file of ``folder`` not in ``read`` (name -> SHA-256 of its bytes,
    updated with those fully imported)."""
    listed = names(folder)
    out = Read()
    empty = doc.oplog_vv == loro.VersionVector()
    if not read:  # a new computer: the newest snapshot first, then what it lacks
        _from_snapshot(folder, listed, doc, read, out)
    _read(folder, listed, doc, read, out)
    if not empty or out.waiting or out.whole is None or not _is_snapshot(out.whole):
        out.whole = None
    return out


def _is_snapshot(data: bytes) -> bool:
    try:
        meta = loro.LoroDoc.decode_import_blob_meta(data, False)
    except Exception:  # a blob the engine cannot describe: the document is exported anew
        return False
    return bool(meta.mode == loro.EncodedBlobMode.Snapshot)


def read_own(folder: Path, doc: loro.LoroDoc, read: dict[str, str], device: str,
             committed: set[str]) -> Read:
    """Import this computer's update files that neither ``read`` nor ``committed`` (what
    its seen file, written after each commit, lists) holds: written by an exchange that
    did not commit (killed, or failed), so the library never took them in. Read before
    this exchange writes anything, they lie beneath what it writes (which the engine
    then orders after them), where read with the others they could tie with the
    library's newer values and win. A file a committed exchange wrote (this library
    put back from a backup made before it) is read with the others, after."""
    mine = [n for n in names(folder) if n.startswith(f"{device}-")
            and n.endswith(files.UPDATE_SUFFIX) and n not in read and n not in committed]
    out = _read(folder, mine, doc, read, Read())
    out.whole = None  # only read_new tells a whole document read into an empty one
    return out


def _read(folder: Path, listed: list[str], doc: loro.LoroDoc, read: dict[str, str],
          out: Read) -> Read:
    import hashlib

    for name in listed:
        if name in read:  # read whole once: a file is never written again under its name
            continue
        path = folder / name
        try:
            raw = path.read_bytes()
        except OSError as exc:
            out.skipped.append(f"{name}: cannot be read ({exc.strerror}); tried again later")
            continue
        digest = hashlib.sha256(raw).hexdigest()
        try:
            head, data = files.unpack(raw)
        except files.Torn as exc:
            out.skipped.append(f"{name}: skipped, {exc}; read again when whole")
            continue
        except files.Newer as exc:
            out.skipped.append(f"{name}: refused, {exc}")
            continue
        try:
            status = doc.import_(data)
        except Exception as exc:
            out.skipped.append(f"{name}: skipped, its contents are damaged ({exc})")
            continue
        device = head.get("device")
        if device:
            out.devices[device] = name
        if status.pending is not None:
            out.waiting.append(name)  # held by the engine until what it follows arrives
            continue
        read[name] = digest
        out.took(name, data)
    return out


def _from_snapshot(folder: Path, listed: list[str], doc: loro.LoroDoc,
                   read: dict[str, str], out: Read) -> None:
    import hashlib

    for name in reversed([n for n in listed if n.endswith(files.SNAPSHOT_SUFFIX)]):
        try:
            raw = (folder / name).read_bytes()
            head, data = files.unpack(raw)
            doc.import_(data)
        except Exception:  # unreadable, torn, newer or damaged: an older one will do
            continue
        read.update(head.get("holds") or {})
        read[name] = hashlib.sha256(raw).hexdigest()
        out.took(name, data)
        return


def maybe_snapshot(folder: Path, doc: loro.LoroDoc, device: str, counter: int,
                   read: dict[str, str]) -> str | None:
    """A compacted snapshot when enough update files came since the newest one."""
    listed = names(folder)
    snaps = [n for n in listed if n.endswith(files.SNAPSHOT_SUFFIX)]
    since = len(listed) - len(snaps)
    if snaps:
        try:
            head, _ = files.unpack((folder / snaps[-1]).read_bytes())
            since = sum(1 for n in listed if n not in (head.get("holds") or {})
                        and not n.endswith(files.SNAPSHOT_SUFFIX))
        except (OSError, files.Torn, files.Newer):
            pass
    if since < SNAPSHOT_EVERY:
        return None
    name = f"{device}-{counter:06d}{files.SNAPSHOT_SUFFIX}"
    # older snapshots too: whoever reads this one need not read them (compaction.py)
    read[name] = files.write(folder / name, doc.export(loro.ExportMode.Snapshot()),
                             kind="snapshot", device=device, holds=dict(read))
    return name

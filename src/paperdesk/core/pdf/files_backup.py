"""``backup --with-files`` and its restore: the files folder goes with the library.

A backup ``B.sqlite`` made with its files has them in ``B.files/`` beside it (the same
rule as a library's own folder), each copy written whole (``files.atomic_write``) and no
more readable than the library. Restoring a backup that has such a folder puts it back
as the library's: copied beside the library under a temporary name first, the folder
as it was set aside in the backups folder (``NAME.before-restore-DATE.files``), then the
copy renamed into place; a backup without one leaves the library's files as they are.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from paperdesk.core.db import files
from paperdesk.core.db.attachments_table import files_folder
from paperdesk.core.db.backup import backups_folder, library_mode
from paperdesk.core.model.errors import LibraryError


@dataclass(frozen=True)
class Held:
    """What a files folder holds: how many files, how many bytes."""

    files: int
    size: int

    def said(self) -> str:
        size = (f"{self.size / 2**20:,.1f} MB" if self.size >= 2**20
                else f"{max(1, round(self.size / 1024)) if self.size else 0} KB")
        return f"{self.files} PDF file{'s' * (self.files != 1)} ({size})"


def held(database: Path) -> Held | None:
    """What the files folder of the library or backup at ``database`` holds; None: it
    has none."""
    folder = files_folder(Path(database).absolute())
    if not folder.is_dir():
        return None
    found = [p for p in folder.rglob("*") if p.is_file() and not p.is_symlink()]
    return Held(len(found), sum(p.stat().st_size for p in found))


def _copy_tree(source: Path, dest: Path, mode: int) -> int:
    """Copy the regular files of ``source`` (one level of paper folders) into ``dest``,
    each whole; how many."""
    count = 0
    folder_mode = mode | ((mode & 0o444) >> 2)
    dest.mkdir(mode=folder_mode)
    for sub in sorted(p for p in source.iterdir() if p.is_dir() and not p.is_symlink()):
        target = dest / sub.name
        target.mkdir(mode=folder_mode)
        for path in sorted(p for p in sub.iterdir() if p.is_file() and not p.is_symlink()):
            with files.atomic_write(target / path.name, kind="partial", max_mode=mode) as temp:
                shutil.copyfile(path, temp)
            count += 1
    return count


def back_up_files(library: Path, backup: Path) -> Held:
    """Copy the library's files folder beside the backup at ``backup`` (its folder
    replaced whole when one is there); what it holds."""
    source, dest = files_folder(library), files_folder(Path(backup).absolute())
    temp = dest.with_name(f".{dest.name}.{os.getpid()}.partial")
    mode = library_mode(library) & 0o666
    try:
        shutil.rmtree(temp, ignore_errors=True)
        if source.is_dir():
            _copy_tree(source, temp, mode)
        else:
            temp.mkdir(mode=mode | ((mode & 0o444) >> 2))
        old = dest.with_name(f".{dest.name}.{os.getpid()}.old")
        if dest.exists():
            os.replace(dest, old)
        os.replace(temp, dest)
        shutil.rmtree(old, ignore_errors=True)
    except OSError as exc:
        shutil.rmtree(temp, ignore_errors=True)
        raise LibraryError(f"cannot copy the PDFs to {dest} ({exc.strerror or exc}); "
                           "the backup of the library itself is written") from None
    found = held(backup)
    assert found is not None
    return found


def restore_files(backup: Path, library: Path) -> tuple[Held | None, Path | None]:
    """Put the backup's files folder back as the library's: what it holds (None: the
    backup has none, and the library's files stay) and where the folder as it was is
    kept (None: there was none)."""
    source, dest = files_folder(Path(backup).absolute()), files_folder(Path(library).absolute())
    found = held(backup)
    if found is None:
        return None, None
    temp = dest.with_name(f".{dest.name}.{os.getpid()}.partial")
    kept: Path | None = None
    try:
        shutil.rmtree(temp, ignore_errors=True)
        _copy_tree(source, temp, library_mode(library) & 0o666)
        if dest.exists():
            folder = backups_folder(library)
            folder.mkdir(exist_ok=True)
            stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
            kept = folder / f"{dest.stem}.before-restore-{stamp}.files"
            os.replace(dest, kept)
        os.replace(temp, dest)
    except OSError as exc:
        with contextlib.suppress(OSError):
            shutil.rmtree(temp)
        raise LibraryError(f"cannot put the PDFs back in {dest} ({exc.strerror or exc})") \
            from None
    return found, kept

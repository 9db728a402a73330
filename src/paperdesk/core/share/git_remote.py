"""A share through a git repository (a bare repository on a server, or a path): each
library keeps a clone of its own beside it (``NAME.sqlite.share/``), and an exchange
is the folder exchange in that clone between a pull and a push.

Update files are never edited and are named by the computer that wrote them, so two
computers' commits always merge without a conflict. A push refused because another
computer pushed first is pulled and pushed again; a push that cannot reach the remote
(offline) leaves the commit in the clone, pushed at the next exchange.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from paperdesk.core.model.errors import ShareError

BRANCH = "main"
_TRIES = 4


def is_git(where: str) -> bool:
    """Whether ``where`` names a git repository rather than a plain folder."""
    if where.startswith(("git@", "ssh://", "https://", "http://", "file://", "git://")):
        return True
    path = Path(where).expanduser()
    return where.endswith(".git") or ((path / "HEAD").is_file() and (path / "objects").is_dir())


def clone_path(library: Path) -> Path:
    return library.with_name(library.name + ".share")


def _git(clone: Path | None, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    command = ["git", *(["-C", str(clone)] if clone else []), *args]
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"}
    try:
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    except FileNotFoundError:
        raise ShareError("git is not installed: sharing through git needs it") from None
    except subprocess.TimeoutExpired:
        raise ShareError(f"git {args[0]} took more than 5 minutes; nothing was exchanged") from None
    if check and done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
        raise ShareError(f"git {args[0]} failed: {last}")
    return done


def prepare(url: str, clone: Path, device: str) -> None:
    """Clone ``url`` into ``clone`` (once), on the share's branch."""
    if not (clone / ".git").is_dir():
        _git(None, "clone", "--quiet", url, str(clone))
        _git(clone, "config", "user.name", f"PaperDesk {device}")
        _git(clone, "config", "user.email", f"{device}@paperdesk.invalid")
        if _git(clone, "rev-parse", "--verify", "--quiet", "HEAD", check=False).returncode:
            _git(clone, "checkout", "--quiet", "-b", BRANCH)  # an empty repository


def pull(clone: Path) -> None:
    """Bring the remote's files in; offline, the exchange goes on with what is here."""
    fetched = _git(clone, "fetch", "--quiet", "origin", check=False)
    if fetched.returncode:
        return
    if _git(clone, "rev-parse", "--verify", "--quiet", f"origin/{BRANCH}",
            check=False).returncode == 0:
        _commit(clone)  # what an earlier exchange left uncommitted (killed before it)
        _git(clone, "merge", "--quiet", "--no-edit", f"origin/{BRANCH}")


def _commit(clone: Path) -> bool:
    _git(clone, "add", "--all")
    if _git(clone, "diff", "--cached", "--quiet", check=False).returncode == 0:
        return False
    _git(clone, "commit", "--quiet", "-m", "PaperDesk: shared changes")
    return True


def push(clone: Path) -> bool:
    """Commit this exchange's files and push them; whether the remote has them."""
    _commit(clone)
    if _git(clone, "rev-parse", "--verify", "--quiet", "HEAD", check=False).returncode:
        return True  # nothing ever written: nothing to push
    for _ in range(_TRIES):
        if _git(clone, "push", "--quiet", "origin", f"HEAD:{BRANCH}",
                check=False).returncode == 0:
            return True
        if _git(clone, "fetch", "--quiet", "origin", check=False).returncode:
            return False  # offline: pushed at the next exchange
        _git(clone, "merge", "--quiet", "--no-edit", f"origin/{BRANCH}")
    return False

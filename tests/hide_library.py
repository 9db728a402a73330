"""Run a command where the dynamic loader cannot find one shared library.

    unshare -m python3 tests/hide_library.py LIBRARY -- COMMAND...

Inside a private mount namespace (``unshare -m``, as root) the folder that holds
LIBRARY is covered by a folder of links to everything else in it, so the loader
answers "not found" for LIBRARY exactly as on a machine where its package is not
installed. Nothing outside the namespace sees the change.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path


def library_path(name: str) -> Path | None:
    out = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.strip().startswith(name + " ") and "=>" in line:
            return Path(line.split("=>")[1].strip()).resolve()
    return None


def main(argv: list[str]) -> int:
    name, command = argv[0], argv[argv.index("--") + 1:]
    found = library_path(name)
    if found is not None:
        folder = found.parent
        work = Path(tempfile.mkdtemp(prefix="hide-library-"))
        original, farm = work / "original", work / "farm"
        original.mkdir()
        farm.mkdir()
        subprocess.run(["mount", "--bind", str(folder), str(original)], check=True)
        stem = name.split(".so")[0] + ".so"
        for entry in os.listdir(original):
            if not entry.startswith(stem):
                (farm / entry).symlink_to(original / entry)
        subprocess.run(["mount", "--bind", str(farm), str(folder)], check=True)
    os.execvp(command[0], command)  # the command's own exit status, signals included


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

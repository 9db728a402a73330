#!/usr/bin/env python3
"""Set up a development environment and run PaperDesk or its test suite.

    python3 .ci/dev.py demo    # set up, then open the app on the demo library
    python3 .ci/dev.py test    # set up, then run ruff, the import contracts, mypy and pytest

Needs only Python 3.11+. Creates .venv/ beside pyproject.toml and installs the
project into it (again only when pyproject.toml changed). On Debian/Ubuntu, as
root, it installs the system libraries Qt needs (and, with CI=true, the TeX
tools the BibTeX tests run); otherwise it names what is missing.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = Path(os.environ.get("PAPERDESK_VENV", ROOT / ".venv"))
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")

# Shared libraries Qt loads, and the Debian packages that provide them.
QT_LIBS = {
    "libEGL.so.1": "libegl1", "libGL.so.1": "libgl1", "libxkbcommon.so.0": "libxkbcommon0",
    "libfontconfig.so.1": "libfontconfig1", "libdbus-1.so.3": "libdbus-1-3",
    "libglib-2.0.so.0": "libglib2.0-0", "libfreetype.so.6": "libfreetype6",
}
# Needed only to show a real window on X11.
X11_LIBS = {
    "libxcb-cursor.so.0": "libxcb-cursor0", "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxcb-icccm.so.4": "libxcb-icccm4", "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-shape.so.0": "libxcb-shape0", "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-image.so.0": "libxcb-image0", "libX11-xcb.so.1": "libx11-xcb1",
}
# Programs some tests run, with their packages (installed in CI, skipped elsewhere).
TEST_TOOLS = {
    # texlive-publishers: IEEEtran.bst, one of the styles the export is built under
    "bibtex": ["texlive-latex-base", "texlive-latex-recommended", "texlive-bibtex-extra",
               "texlive-publishers"],
    "biber": ["biber"],
    "desktop-file-validate": ["desktop-file-utils"],
    "appstreamcli": ["appstream"],
    "pandoc": ["pandoc"],
    # the tests that drive a real window on an X server of their own
    "Xvfb": ["xvfb"],
    "xdotool": ["xdotool"],
}


# The stand-in for Windows and macOS, after the fast tier: the core's tests again with
# fcntl and the other POSIX-only calls removed (tests/no_posix.py), so that one fails a
# test. Not all of tests/core (about 4 minutes here): the tests whose PaperDesk code runs
# in pytest's own process (a CLI or reader process started by a test does not load the
# plugin) and reaches what differs by system: opening, locking and replacing files, the
# library's folder and sessions, syncs, backups and restores, hostile inputs; and the
# import of every core module (test_no_posix.py).
NO_POSIX = ["-p", "tests.no_posix", *(f"tests/{name}.py" for name in (
    "core/test_no_posix", "core/test_portable", "core/test_store", "core/test_open_locks",
    "core/test_outside_writes", "core/test_sync_disk", "core/test_syncs",
    "core/test_import_hostile", "core/test_trash", "core/test_migrations",
    "core/test_export_processes", "core/test_workers",
    "reliability/test_backup", "reliability/test_file_identity",
    "reliability/test_written_files", "reliability/test_restore_writing",
    "reliability/test_replaced_under_holder"))]

# A network that drops a connection now and then: pip (here, and inside the tests that
# build and install the wheel) tries more often and waits longer, unless told otherwise.
NET_ENV = {"PIP_RETRIES": "10", "PIP_DEFAULT_TIMEOUT": "60"}


def run(*cmd: str | Path, check: bool = True, env: dict[str, str] | None = None) -> int:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    return subprocess.run([str(c) for c in cmd], check=check, env=env).returncode


def net_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    return {**NET_ENV, **os.environ, **(extra or {})}


def run_retrying(*cmd: str | Path, env: dict[str, str], attempts: int = 3) -> None:
    """A command that downloads: run again after a pause when it fails, then give up."""
    for attempt in range(1, attempts + 1):
        if run(*cmd, check=False, env=env) == 0:
            return
        if attempt < attempts:
            print(f"note: failed (attempt {attempt} of {attempts}); trying again", flush=True)
            time.sleep(10 * attempt)
    raise SystemExit(f"failed {attempts} times: {' '.join(str(c) for c in cmd)}")


def missing_libs(libs: dict[str, str]) -> list[str]:
    if not sys.platform.startswith("linux") or not shutil.which("ldconfig"):
        return []
    known = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True).stdout
    return sorted({pkg for lib, pkg in libs.items() if lib not in known})


def apt_install(packages: list[str]) -> None:
    if not packages:
        return
    if os.geteuid() == 0 and shutil.which("apt-get"):
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        retries = ("-o", "Acquire::Retries=5")
        run_retrying("apt-get", *retries, "update", "-qq", env=env)
        run_retrying("apt-get", *retries, "install", "-y", "-qq", "--no-install-recommends",
                     *packages, env=env)
    else:
        print(f"note: install these system packages if Qt fails to start: {' '.join(packages)}")


def setup(extra_libs: dict[str, str] | None = None, tools: bool = False) -> None:
    packages = missing_libs({**QT_LIBS, **(extra_libs or {})})
    if tools and os.environ.get("CI") == "true":
        for program, pkgs in TEST_TOOLS.items():
            if not shutil.which(program):
                packages += pkgs
    apt_install(sorted(set(packages)))
    if not PY.exists():
        run(sys.executable, "-m", "venv", VENV)
    stamp = VENV / ".paperdesk-installed"
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if not stamp.exists() or stamp.read_text() != wanted:
        run_retrying(PY, "-m", "pip", "install", "-q", "--upgrade", "pip", env=net_env())
        run_retrying(PY, "-m", "pip", "install", "-q", "-e", f"{ROOT}[test]", env=net_env())
        stamp.write_text(wanted)


def test(args: list[str]) -> int:
    # In CI, Qt's X11 libraries too: the real-window tests run there, not skipped.
    setup(X11_LIBS if os.environ.get("CI") == "true" else None, tools=True)
    env = net_env({"QT_QPA_PLATFORM": "offscreen"})
    os.chdir(ROOT)
    failed = 0
    failed |= run(BIN / "ruff", "check", ROOT, check=False)
    failed |= run(BIN / "lint-imports", check=False, env=env)
    # The types of the modules [tool.mypy] in pyproject.toml lists (ratcheted outward).
    failed |= run(BIN / "mypy", check=False, env=env)
    # Two tiers: the fast one (pytest's default selection), then the slow one. With
    # arguments, pytest runs just what they name.
    # Every tier runs on a worker process per core, up to four (pytest's addopts, ``-n
    # auto``). The slow tier's tests are long and mostly wait (soaks, TeX, the bundle
    # build): it runs on two workers where the machine has two cores or more.
    workers = ["-n", "2"] if (os.cpu_count() or 1) >= 2 else []
    tiers = [("fast", []), ("no-POSIX", NO_POSIX), ("slow", ["-m", "slow or tex", *workers])] \
        if not args else [("given", args)]
    times = []
    for name, tier in tiers:
        start = time.monotonic()
        code = run(PY, "-m", "pytest", *tier, check=False, env=env)
        times.append(f"{name} tier {time.monotonic() - start:.0f} s")
        failed |= 0 if code == 5 else code  # 5: the tier selected no test
    print("; ".join(times), flush=True)
    return 1 if failed else 0


def demo(args: list[str]) -> int:
    setup(X11_LIBS if os.environ.get("DISPLAY") else None)
    return run(BIN / "paperdesk", "--demo", *args, check=False)


def main() -> int:
    commands = {"test": test, "demo": demo}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        print(__doc__)
        return 2
    return commands[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    raise SystemExit(main())

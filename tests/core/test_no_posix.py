"""What ``-p tests.no_posix`` (the CI step that stands in for Windows and macOS) relies on:
every core module imports in the test process itself, the plugin really removes what it
says, and the folders PaperDesk picks on Windows and macOS are the ones docs/guide.md names."""

from __future__ import annotations

import importlib
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import paperdesk.core

ROOT = Path(__file__).resolve().parents[2]


def test_every_core_module_imports():
    folder = Path(paperdesk.core.__file__).parent
    files = {".".join(("paperdesk", "core", *f.relative_to(folder).with_suffix("").parts))
             .removesuffix(".__init__") for f in folder.rglob("*.py")}
    names = [info.name
             for info in pkgutil.walk_packages(paperdesk.core.__path__, "paperdesk.core.")]
    for name in names:
        importlib.import_module(name)
    assert set(names) | {"paperdesk.core"} == files


def _python(code: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, cwd=ROOT, env={**os.environ, **(env or {})})


def test_the_plugin_removes_the_posix_only_calls_for_paperdesk_only():
    probe = (
        "import tests.no_posix, os\n"
        "try:\n    import fcntl\nexcept ImportError:\n    print('no fcntl')\n"
        "print('flag', hasattr(os, 'O_NONBLOCK'))\n"
        "print('others still call', os.getuid() >= 0)\n"
        "__name__ = 'paperdesk.probe'\n"
        "for call in (lambda: os.statvfs('.'), lambda: os.getuid(),\n"
        "             lambda: os.kill(os.getpid(), 0), lambda: open('/proc/self/stat')):\n"
        "    try:\n        call()\n    except (AssertionError, FileNotFoundError) as e:\n"
        "        print(type(e).__name__)\n")
    result = _python(probe)
    assert result.stdout.splitlines() == [
        "no fcntl", "flag False", "others still call True",
        "AssertionError", "AssertionError", "AssertionError", "FileNotFoundError"], result.stderr


def test_the_plugin_refuses_to_load_after_paperdesk():
    result = _python("import paperdesk.core.library, tests.no_posix")
    assert result.returncode != 0 and "PaperDesk was imported before" in result.stderr


# platformdirs picks its system by sys.platform when it is imported: a new process told it
# runs on Windows (without ctypes, so the folder comes from %LOCALAPPDATA%, as Windows'
# own call would give it) or macOS.
FOLDERS = ("import sys; sys.platform = {platform!r}; sys.modules['ctypes'] = None\n"
           "from paperdesk.core.db import paths\n"
           "print(paths.data_dir()); print(paths.library_path())\n")


def test_the_data_folder_on_windows_is_local_appdata(tmp_path):
    local = str(tmp_path / "AppData" / "Local")
    result = _python(FOLDERS.format(platform="win32"),
                     {"LOCALAPPDATA": local, "APPDATA": str(tmp_path / "Roaming"),
                      "PAPERDESK_DATA_DIR": "", "PAPERDESK_LIBRARY": ""})
    assert result.stdout.splitlines() == [f"{local}/PaperDesk",
                                          f"{local}/PaperDesk/library.sqlite"], result.stderr
    assert (tmp_path / "AppData" / "Local" / "PaperDesk").is_dir()


def test_the_data_folder_on_macos_is_application_support(tmp_path):
    result = _python(FOLDERS.format(platform="darwin"),
                     {"HOME": str(tmp_path), "PAPERDESK_DATA_DIR": "", "PAPERDESK_LIBRARY": ""})
    folder = tmp_path / "Library" / "Application Support" / "PaperDesk"
    assert result.stdout.splitlines() == [str(folder), str(folder / "library.sqlite")], \
        result.stderr
    assert folder.is_dir()

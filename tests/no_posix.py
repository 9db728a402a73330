"""A pytest plugin that makes this Linux machine look like Windows to PaperDesk's core:
``python -m pytest -p tests.no_posix tests/core`` (``.ci/dev.py test`` runs it).

Loaded with ``-p`` it runs before any conftest, so before PaperDesk is imported. Then:

- the POSIX-only modules cannot be imported (``import fcntl`` raises ImportError);
- the ``os`` functions Windows lacks fail when PaperDesk's own code calls them (pytest,
  subprocess and the other libraries still call them: they know each system), and signal 0
  through ``os.kill``, which ends the process on Windows, fails the same way;
- the ``os.O_*`` flags Windows lacks are gone, so ``getattr(os, "O_NONBLOCK", 0)`` takes
  its fallback;
- ``/proc`` does not exist for PaperDesk's code (psutil, which knows each system, reads it).

Tests that need POSIX themselves (a pseudo-terminal, a FIFO, SIGKILL) carry
``@pytest.mark.posix`` and are skipped here; the summary says how many.
"""

from __future__ import annotations

import builtins
import os
import sys

import pytest

# Modules that exist only on POSIX systems. pytest, hypothesis, filelock and platformdirs
# start without them (getpass.getuser, for pytest's temporary folders, falls back without
# pwd). Left importable: ``resource``, which psutil's Linux part imports (on Windows
# psutil has its own); PaperDesk's sources must not import it (tests/core/test_portable.py).
POSIX_MODULES = ("fcntl", "termios", "tty", "pty", "pwd", "grp", "syslog",
                 "posix", "crypt", "spwd", "nis", "readline")

# Functions of Linux's ``os`` that Windows' does not have (Python 3.11, which PaperDesk
# supports: fchmod and lchmod came to Windows in 3.13, get/set_blocking in 3.12).
POSIX_FUNCTIONS = (
    "chown chroot confstr ctermid fchdir fchmod fchown fdatasync fork forkpty fpathconf "
    "fstatvfs fwalk get_blocking getegid geteuid getgid getgrouplist getgroups getloadavg "
    "getpgid getpgrp getpriority getresgid getresuid getsid getuid getxattr initgroups "
    "killpg lchmod lchown listxattr lockf major makedev minor mkfifo mknod nice openpty "
    "pathconf pipe2 posix_fadvise posix_fallocate posix_spawn posix_spawnp pread preadv "
    "pwrite pwritev readv register_at_fork removexattr sched_getaffinity sched_setaffinity "
    "sched_yield sendfile set_blocking setegid seteuid setgid setgroups setpgid setpgrp "
    "setpriority setregid setresgid setresuid setreuid setsid setuid setxattr spawnlp "
    "spawnlpe spawnvp spawnvpe statvfs sync sysconf tcgetpgrp tcsetpgrp ttyname uname "
    "wait wait3 wait4 waitid").split()

# Flags of ``os.open`` that Windows does not have. Kept: O_TMPFILE, O_NOFOLLOW and
# O_NOCTTY, which the standard library reads on Linux (tempfile, getpass).
POSIX_FLAGS = ("O_NONBLOCK O_NDELAY O_CLOEXEC O_DIRECTORY O_DSYNC O_SYNC O_RSYNC O_ASYNC "
               "O_DIRECT O_NOATIME O_PATH O_LARGEFILE O_ACCMODE O_FSYNC").split()


def called_by_paperdesk(depth: int = 2) -> bool:
    """True when the frame ``depth`` levels up runs PaperDesk's own code."""
    name = sys._getframe(depth).f_globals.get("__name__", "")
    return name == "paperdesk" or name.startswith("paperdesk.")


def _absent(name: str, real):
    def absent(*args, **kwargs):
        if called_by_paperdesk():
            raise AssertionError(f"os.{name} called: Windows has no os.{name}")
        return real(*args, **kwargs)
    absent.__name__ = name
    return absent


def _kill(real):
    def kill(pid, sig):
        if sig == 0 and called_by_paperdesk():
            raise AssertionError(f"os.kill({pid}, 0) called: it ends the process on Windows")
        return real(pid, sig)
    return kill


def _no_proc(path) -> bool:
    return str(path).startswith("/proc") and called_by_paperdesk(3)


def _hide_proc(real_open, real_isdir, real_exists):
    def open_(file, *args, **kwargs):
        if _no_proc(file):
            raise FileNotFoundError(2, "No such file or directory", str(file))
        return real_open(file, *args, **kwargs)

    builtins.open = open_
    os.path.isdir = lambda p: False if _no_proc(p) else real_isdir(p)
    os.path.exists = lambda p: False if _no_proc(p) else real_exists(p)


def remove_posix() -> None:
    """Make this process look like Windows to PaperDesk (see the module's text)."""
    assert not any(m == "paperdesk" or m.startswith("paperdesk.") for m in sys.modules), \
        "PaperDesk was imported before the POSIX-only calls were removed"
    for module in POSIX_MODULES:
        sys.modules[module] = None  # type: ignore[assignment]  # import raises ImportError
    for name in POSIX_FUNCTIONS:
        if hasattr(os, name):
            setattr(os, name, _absent(name, getattr(os, name)))
    for flag in POSIX_FLAGS:
        if hasattr(os, flag):
            delattr(os, flag)
    os.kill = _kill(os.kill)
    _hide_proc(builtins.open, os.path.isdir, os.path.exists)


remove_posix()


def pytest_collection_modifyitems(config, items):
    skip = pytest.mark.skip(reason="marked posix: needs POSIX itself (a pseudo-terminal, "
                                   "a FIFO, SIGKILL); not run with the POSIX-only calls removed")
    for item in items:
        if item.get_closest_marker("posix"):
            item.add_marker(skip)
            config.stash.setdefault(_SKIPPED, []).append(item.nodeid)


_SKIPPED = pytest.StashKey[list]()


def pytest_terminal_summary(terminalreporter, config):
    skipped = config.stash.get(_SKIPPED, [])
    terminalreporter.write_line(
        f"no_posix: fcntl and {len(POSIX_FUNCTIONS)} os functions removed; "
        f"{len(skipped)} test(s) marked posix skipped")

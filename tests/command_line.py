"""Running ``paperdesk ARGS`` from a test, in one of two ways:

- ``paperdesk(...)``: in this process, through the same entry point as
  ``python -m paperdesk`` (``paperdesk.app.main``), for a test whose subject is what a
  command does and says. A process of its own costs a few tenths of a second each.
- ``paperdesk_process(...)``: a process of its own, for a test whose subject is the
  process: signals and kill -9, what loads at start-up, two programs at once (file locks
  are per process), stdin pipes, or a command that must never print a traceback even
  when everything else fails.

Both return the exit code, stdout and stderr as ``subprocess.run(..., text=True)`` does,
and both fail the test if stderr holds a traceback.
"""

from __future__ import annotations

import io
import logging
import os
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from paperdesk.app import main

ROOT = Path(__file__).resolve().parents[1]


def cli_command(*args: Any) -> list[str]:
    return [sys.executable, "-m", "paperdesk", *map(str, args)]


def cli_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT / "src")}


def paperdesk_process(*args: Any, env: Mapping[str, str] | None = None,
                      check_rc: int | None = None, input: str | None = None,
                      timeout: float = 120) -> subprocess.CompletedProcess:
    """``paperdesk ARGS`` in a process of its own."""
    result = subprocess.run(cli_command(*args), capture_output=True, text=True, input=input,
                            env={**cli_env(), **(env or {})}, timeout=timeout)
    return _checked(result, check_rc)


def paperdesk(*args: Any, env: Mapping[str, str] | None = None, check_rc: int | None = None,
              input: str | None = None) -> subprocess.CompletedProcess:
    """``paperdesk ARGS`` in this process, with the environment changed by ``env`` for
    the command only, ``input`` as its stdin (never a terminal), and its stdout and
    stderr encoded and decoded as a process's through pipes would be."""
    argv = [str(a) for a in args]
    out, err = _pipe("surrogateescape"), _pipe("backslashreplace")
    with _environment(env or {}), _standard_streams(input or "", out, err), _warnings_to(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse: usage errors, --help, --version
            code = _exit_code(exc, err)
    result = subprocess.CompletedProcess(cli_command(*argv), code, _read(out), _read(err))
    return _checked(result, check_rc)


def _checked(result: subprocess.CompletedProcess, check_rc: int | None):
    assert "Traceback" not in result.stderr, result.stderr
    if check_rc is not None:
        assert result.returncode == check_rc, result.stderr
    return result


def _pipe(errors: str) -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors=errors)


def _read(stream: io.TextIOWrapper) -> str:
    stream.flush()
    text = stream.buffer.getvalue().decode("utf-8")  # strict, as subprocess decodes
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _exit_code(exc: SystemExit, err: io.TextIOWrapper) -> int:
    if exc.code is None or isinstance(exc.code, int):
        return exc.code or 0
    print(exc.code, file=err)  # what the interpreter does with SystemExit("message")
    return 1


@contextmanager
def _environment(changes: Mapping[str, str]) -> Iterator[None]:
    saved = {name: os.environ.get(name) for name in changes}
    os.environ.update(changes)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@contextmanager
def _standard_streams(stdin: str, out: io.TextIOWrapper, err: io.TextIOWrapper):
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(stdin), out, err
    try:
        yield
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved


@contextmanager
def _warnings_to(err: io.TextIOWrapper) -> Iterator[None]:
    """Log records of WARNING and above on stderr, message only: what a process with
    no logging set up writes (``logging.lastResort``)."""
    handler = logging.StreamHandler(err)
    handler.setLevel(logging.WARNING)
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)

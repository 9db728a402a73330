"""The command line: headless commands over the same Library facade as the GUI."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any, Protocol


class Commands(Protocol):
    """What ``ArgumentParser.add_subparsers`` returns, as the command modules use it
    (argparse's own class for it is private)."""

    @property
    def choices(self) -> Mapping[str, argparse.ArgumentParser]: ...

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser: ...

"""The `paperdesk` entry point: a command runs headless, no command opens the window."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from paperdesk.cli.main import build_parser, resolve_library_path, run


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is not None:
        return run(args)
    from paperdesk.gui.main import run_gui  # Qt loads only when the window is wanted

    return run_gui(resolve_library_path(args), demo=args.demo, argv=sys.argv[:1])


if __name__ == "__main__":
    raise SystemExit(main())

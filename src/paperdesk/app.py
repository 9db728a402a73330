"""The `paperdesk` entry point: a command runs headless, no command opens the window."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from paperdesk.cli.main import Parser, build_parser, resolve_library_path, run
from paperdesk.core.api import tune_children


def _files_to_open(parser: Parser, argv: list[str]) -> list[str]:
    """`paperdesk FILE...` (how a desktop opens files with the app): the files to import.

    Only when the first word that is not an option is an existing path and not a command.
    """
    commands = set(parser.commands.choices if parser.commands else ())
    words = [w for i, w in enumerate(argv)
             if not w.startswith("-") and (i == 0 or argv[i - 1] not in ("--library", "--search"))]
    if not words or words[0] in commands or not Path(words[0]).exists():
        return []
    return words


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    tune_children()  # before any thread: the environment is not changed under one
    parser = build_parser(argv)
    parser.add_argument("--self-test", action="store_true",
                        help="open the main window offscreen on a temporary demo library, "
                             "then quit (exit 0 when this installation works)")
    parser.add_argument("--search", metavar="QUERY",
                        help="open the window showing this search (a window already open "
                             "on the library shows it instead)")
    files = _files_to_open(parser, argv)
    args = parser.parse_args([w for w in argv if w not in files])
    if args.self_test:
        from paperdesk.gui.startup.selftest import run_self_test

        return run_self_test()
    if args.command is not None:
        return run(args)
    from paperdesk.gui.startup.platform_check import check

    problem = check()  # before Qt: Qt aborts the process when its platform plugin fails
    if problem is not None:
        print(f"paperdesk: {problem.line()}", file=sys.stderr)
        return 1
    from paperdesk.gui.main import run_gui  # Qt loads only when the window is wanted

    # A window already open on the library is handed the files and the search instead.
    return run_gui(resolve_library_path(args), demo=args.demo, argv=sys.argv[:1],
                   files=[Path(f) for f in files], new=args.create, search=args.search)


if __name__ == "__main__":
    raise SystemExit(main())

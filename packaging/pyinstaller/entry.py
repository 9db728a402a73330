"""The bundle's entry point: the same `paperdesk` command as the wheel's."""

from paperdesk.app import main

if __name__ == "__main__":
    raise SystemExit(main())

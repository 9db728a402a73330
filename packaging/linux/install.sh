#!/bin/sh
# Install (or remove) PaperDesk's desktop entry, AppStream metainfo and icon,
# so that PaperDesk shows up in the application menu and "Open with".
#
#   packaging/linux/install.sh [--uninstall] [PREFIX]
#
# PREFIX defaults to ~/.local (just for you); use /usr/local as root for
# everyone. DESTDIR is honoured for staged installs. The `paperdesk` command
# itself comes from `pip install` of the wheel (or the bundle) and must be on PATH.
set -eu

ID=org.paperdesk.PaperDesk
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)

uninstall=0
if [ "${1:-}" = "--uninstall" ]; then
    uninstall=1
    shift
fi
PREFIX=${1:-${HOME}/.local}
DEST=${DESTDIR:-}${PREFIX}/share

APPS="$DEST/applications/$ID.desktop"
META="$DEST/metainfo/$ID.metainfo.xml"
ICON="$DEST/icons/hicolor/scalable/apps/$ID.svg"

if [ "$uninstall" = 1 ]; then
    rm -f "$APPS" "$META" "$ICON"
    echo "removed PaperDesk's desktop files from $DEST"
else
    install -D -m 644 "$HERE/$ID.desktop" "$APPS"
    install -D -m 644 "$HERE/$ID.metainfo.xml" "$META"
    install -D -m 644 "$ROOT/resources/paperdesk.svg" "$ICON"
    echo "installed $APPS"
    echo "installed $META"
    echo "installed $ICON"
    command -v paperdesk >/dev/null 2>&1 ||
        echo "note: 'paperdesk' is not on PATH; the menu entry needs it" >&2
fi

# Refresh the caches when this is the live system (not a staged DESTDIR).
if [ -z "${DESTDIR:-}" ]; then
    if command -v update-desktop-database >/dev/null 2>&1; then
        update-desktop-database -q "$DEST/applications" 2>/dev/null || true
    fi
    if command -v gtk-update-icon-cache >/dev/null 2>&1; then
        gtk-update-icon-cache -q -t "$DEST/icons/hicolor" 2>/dev/null || true
    fi
fi

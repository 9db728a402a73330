"""The PySide6 desktop app. All Qt code lives under this package."""

from paperdesk.gui.compat import immortalise_singletons

immortalise_singletons()

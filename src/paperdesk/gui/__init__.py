"""The PySide6 desktop app. All Qt code lives under this package."""

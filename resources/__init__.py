"""Icons and other files the desktop app shows."""

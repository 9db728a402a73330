"""Small pieces every part of the window uses: settings, geometry, icons, dialogs, file forms,
the clipboard.
"""

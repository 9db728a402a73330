"""The pure model: text, parsing, and the small pieces everything uses.

No database here, and nothing from a floor above.
"""

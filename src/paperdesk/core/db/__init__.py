"""The library file: opening it, the schema and its migrations, what a write changed.

Imports only the model.
"""

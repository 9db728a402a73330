"""The areas of work on a library: curation, tags, notes, trash, citation keys,
duplicates, search, the exports.

Imports the database floor and the model.
"""

"""The user's work on papers: ratings, statuses, the reading list, saved searches, tags, notes,
the trash, triage, the reading queue, and the reads the window browses by.
"""

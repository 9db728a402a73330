"""Importing from the window: the job and its report."""

"""Triage, the reading queue and the trash."""

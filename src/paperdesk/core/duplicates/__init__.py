"""Likely duplicates: blocking candidates, judging pairs, the one paper matcher, merging."""

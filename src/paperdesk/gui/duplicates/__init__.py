"""The duplicate review: groups, the side-by-side comparison, merge history."""

"""The paper table: its model, view, header, stars, and the feed that keeps it current."""

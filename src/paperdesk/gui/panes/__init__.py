"""The panes around the table: sidebar, detail pane and note, search bar, upvote chart."""

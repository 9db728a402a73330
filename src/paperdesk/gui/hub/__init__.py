"""The Hub in the window: completing papers, Today."""

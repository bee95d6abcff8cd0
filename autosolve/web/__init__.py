"""The loopback HTTP stack shared by the practice page and the Queens Game page."""

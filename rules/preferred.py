"""Rules of the preferred family (being written)."""

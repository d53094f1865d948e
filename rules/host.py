"""Rules of the host family (being written)."""

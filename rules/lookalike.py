"""Rules of the lookalike family (being written)."""

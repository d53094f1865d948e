"""Rules of the bidi family (being written)."""

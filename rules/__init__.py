"""irilint.rules: one module per rule family."""

"""The language server (imports pygls; the core never imports this)."""

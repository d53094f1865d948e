"""The irilint language server (the only place pygls and lsprotocol are
imported; the engine never imports this package).

Modules, one feature each:

* :mod:`.server` -- creation, capabilities, handler wiring, :func:`main`;
* :mod:`.documents` -- the server's own document store: incremental edits
  applied with :class:`irilint.lines.LineIndex` (LSP line ends only);
* :mod:`.convert_positions` -- offsets <-> LSP positions in the negotiated
  encoding;
* :mod:`.diagnostics` -- linting (debounced, versioned), push and pull;
* :mod:`.actions` -- quickfixes, fix-all, ignore-on-line, conversions;
* :mod:`.hover` -- components, URI/IRI forms, characters, display order;
* :mod:`.settings` -- editor settings, project configuration, precedence;
* :mod:`.scanning` -- the scanner, comment syntax and references of a
  document.

Run it with ``python -m irilint.lsp`` or ``irilint server``.
"""

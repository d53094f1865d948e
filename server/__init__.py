"""irilint: a linter and language server for IRIs (RFC 3987) and URIs."""
__version__ = "0.1.0"

"""Scanners: find IRI references in documents of many formats, with exact spans."""

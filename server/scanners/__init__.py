"""Scanners: find IRI references in documents of many formats, with exact spans.

Choose one with :func:`scanner_for` (by LSP languageId, file name or
extension, with user overrides) or :func:`get_scanner` (by name).  Every
scanner returns :class:`~irilint.scanners.base.Candidate` objects sorted by
start, not overlapping, with code-point offsets into the text.

Scanner names: ``text``, ``markdown``, ``html``, ``xml``, ``rst``, ``code``,
``json``, ``yaml``, ``toml``, ``turtle``.  ``get_scanner`` also accepts a
programming language (``python``, ``c``, ``shellscript``...): the ``code``
scanner configured with that language's quotes and comment markers.
"""
from __future__ import annotations

import os
from importlib import import_module
from typing import Any, Dict, List, Mapping, Optional, Type

from .base import Candidate, CommentSyntax, Scanner

__all__ = [
    "Candidate", "CommentSyntax", "Scanner", "SCANNERS", "find_iris",
    "get_scanner", "scanner_for", "scanner_names", "code_languages",
    "is_scanner_name", "declaration_syntax", "syntax_of",
]

# The scanner modules are imported when first used, not with this package:
# a language server answers ``initialize`` before it reads any document,
# and a Markdown file needs neither the HTML nor the code scanner's regexes.

#: Scanner name -> (module, class).
_SCANNER_CLASSES: Dict[str, tuple] = {
    "text": ("text", "TextScanner"),
    "markdown": ("markdown", "MarkdownScanner"),
    "html": ("html", "HtmlScanner"),
    "xml": ("html", "XmlScanner"),
    "rst": ("rst", "RstScanner"),
    "code": ("code", "CodeScanner"),
    "json": ("data", "JsonScanner"),
    "yaml": ("data", "YamlScanner"),
    "toml": ("data", "TomlScanner"),
    "turtle": ("turtle", "TurtleScanner"),
}

#: Names this package exports from its submodules (module ``__getattr__``).
_LAZY = dict(
    {cls: mod for mod, cls in _SCANNER_CLASSES.values()},
    find_iris="text", CODE_EXTENSIONS="code", CODE_FILENAMES="code", CODE_LANGUAGES="code",
)
_CODE_NAMES = {"CODE_EXTENSIONS": "EXTENSIONS", "CODE_FILENAMES": "FILENAMES",
               "CODE_LANGUAGES": "LANGUAGES"}


def _scanner_class(name: str) -> Type[Scanner]:
    module, cls = _SCANNER_CLASSES[name]
    return getattr(import_module("." + module, __name__), cls)


_code_module: Any = None


def _code() -> Any:
    """The code scanner's module (its language and file name tables),
    imported at the first call (import_module at each was ~4 µs a file)."""
    global _code_module
    if _code_module is None:
        _code_module = import_module(".code", __name__)
    return _code_module


def __getattr__(name: str) -> Any:
    if name == "SCANNERS":
        value: Any = {n: _scanner_class(n) for n in _SCANNER_CLASSES}
    elif name == "FILENAMES":
        value = _filenames()
    elif name in _LAZY:
        value = getattr(import_module("." + _LAZY[name], __name__), _CODE_NAMES.get(name, name))
    else:
        raise AttributeError("module %r has no attribute %r" % (__name__, name))
    globals()[name] = value
    return value


#: LSP languageId -> scanner name (code languages are looked up separately).
LANGUAGE_IDS: Dict[str, str] = {
    "plaintext": "text", "text": "text", "log": "text",
    "markdown": "markdown", "mdx": "markdown", "quarto": "markdown",
    "html": "html", "vue": "html", "svelte": "html", "astro": "html",
    "handlebars": "html", "razor": "html", "php-html": "html",
    "xml": "xml", "xsl": "xml", "xhtml": "html", "svg": "xml",
    "restructuredtext": "rst", "rst": "rst",
    "json": "json", "jsonc": "json", "json5": "json", "jsonl": "json",
    "jsonld": "json", "yaml": "yaml", "toml": "toml",
    "turtle": "turtle", "sparql": "turtle", "ntriples": "turtle",
    "nquads": "turtle", "trig": "turtle", "n3": "turtle",
}

#: Extension (lowercase, with dot) -> scanner name, for the document formats.
FORMAT_EXTENSIONS: Dict[str, str] = {
    ".txt": "text", ".text": "text", ".log": "text",
    ".md": "markdown", ".markdown": "markdown", ".mdown": "markdown",
    ".mkd": "markdown", ".mdx": "markdown", ".qmd": "markdown",
    ".html": "html", ".htm": "html", ".xhtml": "html", ".shtml": "html",
    ".vue": "html", ".svelte": "html", ".astro": "html", ".hbs": "html",
    ".xml": "xml", ".svg": "xml", ".rdf": "xml", ".owl": "xml",
    ".xsd": "xml", ".xsl": "xml", ".xslt": "xml", ".atom": "xml",
    ".rss": "xml", ".plist": "xml", ".xlf": "xml", ".xliff": "xml",
    ".csproj": "xml", ".pom": "xml", ".kml": "xml", ".gpx": "xml",
    ".opf": "xml", ".ncx": "xml", ".wsdl": "xml", ".resx": "xml",
    ".rst": "rst", ".rest": "rst",
    ".json": "json", ".jsonc": "json", ".json5": "json", ".jsonld": "json",
    ".geojson": "json", ".jsonl": "json", ".ndjson": "json",
    ".webmanifest": "json", ".ipynb": "json",
    ".yaml": "yaml", ".yml": "yaml",
    ".toml": "toml",
    ".ttl": "turtle", ".nt": "turtle", ".nq": "turtle", ".trig": "turtle",
    ".n3": "turtle", ".rq": "turtle", ".sparql": "turtle", ".ru": "turtle",
}

#: Whole file names -> scanner name (with the code scanner's file names,
#: these win: ``FILENAMES`` is both, built on first use).
_FORMAT_FILENAMES: Dict[str, str] = {
    "Pipfile": "toml", "Cargo.lock": "toml", "poetry.lock": "toml",
    "README": "text", "LICENSE": "text", "COPYING": "text",
    ".babelrc": "json", ".eslintrc": "json", ".prettierrc": "json",
}

_filenames_table: Optional[Dict[str, str]] = None


def _filenames() -> Dict[str, str]:
    """Whole file names -> scanner or code language name."""
    global _filenames_table
    if _filenames_table is None:
        _filenames_table = dict(_code().FILENAMES, **_FORMAT_FILENAMES)
    return _filenames_table


_instances: Dict[str, Scanner] = {}


def scanner_names() -> List[str]:
    """The names :func:`get_scanner` accepts for document formats."""
    return list(_SCANNER_CLASSES)


def code_languages() -> List[str]:
    """The programming languages :func:`get_scanner` also accepts."""
    return sorted(_code().LANGUAGES)


def is_scanner_name(name: str) -> bool:
    """Whether :func:`get_scanner` knows ``name`` (format or code language)."""
    key = name.strip().lower()
    return key in _SCANNER_CLASSES or key in LANGUAGE_IDS or key in _code().LANGUAGES


def get_scanner(name: str) -> Scanner:
    """The scanner called ``name`` (a scanner name or a code language).

    Scanners hold no state between calls, so instances are shared.
    Raises :class:`KeyError` for an unknown name.
    """
    key = name.strip().lower()
    scanner = _instances.get(key)
    if scanner is None:
        if key in _SCANNER_CLASSES:
            scanner = _scanner_class(key)()
        elif key in _code().LANGUAGES:
            scanner = _code().CodeScanner(key)
        elif key in LANGUAGE_IDS:
            scanner = get_scanner(LANGUAGE_IDS[key])
        else:
            raise KeyError("unknown scanner: %r (known: %s)" % (
                name, ", ".join(scanner_names())))
        _instances[key] = scanner
    return scanner


def _normalize_extension(ext: str) -> str:
    ext = ext.strip().lower()
    return ext if ext.startswith(".") else "." + ext


def _split_name(path: str):
    """(file name, lowercase file name, lowercase extension with dot)."""
    base = os.path.basename(path.replace("\\", "/"))
    lower = base.lower()
    dot = lower.rfind(".")
    return base, lower, lower[dot:] if dot > 0 else ""


def _by_path(path: str) -> Optional[str]:
    """The scanner name ``path``'s file name says, or None: the reference
    that :func:`_by_file_name`, which keeps a scanner per extension, is
    tested against."""
    base, lower, ext = _split_name(path)
    filenames = _filenames()
    if base in filenames:
        return filenames[base]
    if lower in filenames:
        return filenames[lower]
    if lower.startswith("dockerfile") or lower.endswith(".dockerfile"):
        return "dockerfile"
    if ext in FORMAT_EXTENSIONS:
        return FORMAT_EXTENSIONS[ext]
    code_extensions = _code().EXTENSIONS
    if ext in code_extensions:
        return code_extensions[ext]
    return None


def scanner_for(path: Optional[str] = None, language_id: Optional[str] = None,
                extensions: Optional[Mapping[str, str]] = None) -> Scanner:
    """The scanner for a document.

    Order: a user override in ``extensions`` for ``path`` (keys are
    extensions with or without the dot, ``"md"`` or ``".md"``, or whole
    file names such as ``"Jenkinsfile"``; values are scanner or code
    language names); then the LSP ``language_id``; then the file name and
    its extension; plain text when nothing matches.
    """
    if path and extensions:
        overrides: Dict[str, str] = {}
        for key, value in extensions.items():
            overrides[key.strip().lower()] = value  # a whole file name
            overrides[_normalize_extension(key)] = value
        _base, lower, ext = _split_name(path)
        for key in (lower, ext):
            if key and key in overrides:
                return get_scanner(overrides[key])
    if language_id:
        lid = language_id.strip().lower()
        if lid in LANGUAGE_IDS:
            return get_scanner(LANGUAGE_IDS[lid])
        if lid in _code().LANGUAGES:
            return get_scanner(lid)
    if path:
        return _by_file_name(path)
    return get_scanner("text")


#: extension -> the scanner of a file with it whose whole name says
#: nothing (see _by_file_name)
_by_extension: Dict[str, Scanner] = {}


def _by_file_name(path: str) -> Scanner:
    """The scanner :func:`_by_path` names for ``path``, or the text
    scanner: what :func:`scanner_for` gives for a path alone.  Inline,
    with the scanner of each extension kept (it was a tenth of a file's
    fixed cost in a run over many small files)."""
    base = os.path.basename(path.replace("\\", "/"))
    table = _filenames_table if _filenames_table is not None else _filenames()
    name = table.get(base)
    if name is not None:
        return get_scanner(name)
    lower = base.lower()
    name = table.get(lower)
    if name is not None:
        return get_scanner(name)
    if lower.startswith("dockerfile") or lower.endswith(".dockerfile"):
        return get_scanner("dockerfile")
    dot = lower.rfind(".")
    ext = lower[dot:] if dot > 0 else ""
    scanner = _by_extension.get(ext)
    if scanner is None:
        name = FORMAT_EXTENSIONS.get(ext) or _code().EXTENSIONS.get(ext)
        scanner = get_scanner(name if name is not None else "text")
        if len(_by_extension) >= 1024:  # a tree of made-up extensions
            _by_extension.clear()
        _by_extension[ext] = scanner
    return scanner


def declaration_syntax(path: str, settings: Any = None) -> str:
    """Whose rules read an encoding declaration in the file at ``path``:
    the name of the scanner that checks it ("html", "xml", "markdown",
    ...), or its code language ("python", ...) - see
    :func:`irilint.declared_encoding.find_declaration`.  ``settings``: the
    file's (their ``extensions`` overrides)."""
    extensions = dict(settings.extensions) if settings is not None else None
    return syntax_of(scanner_for(path=path, extensions=extensions))


def syntax_of(scanner: Scanner) -> str:
    """Whose rules read an encoding declaration in a file that ``scanner``
    checks (see :func:`declaration_syntax`)."""
    return getattr(scanner, "language", None) or scanner.name

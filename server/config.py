"""Configuration: where it is found, what it may say, and how it is validated.

(One module, over 600 lines: every key's parser, its validation and the
file search are read together, as one description of the settings.)

Configuration lives in one of three places, looked for in every directory
from a file's own directory up to the filesystem root; the *nearest*
directory that has one wins, and settings are never merged across
directories (a nested project is configured by its own file alone):

* ``.irilint.toml``  - top-level keys
* ``irilint.toml``   - top-level keys
* ``pyproject.toml`` - the ``[tool.irilint]`` table; a ``pyproject.toml``
  without that table does not count, and the walk goes on upwards.

In one directory the precedence is the order above.

Keys are kebab-case.  A snake_case spelling is reported as an unknown key
with a hint, because accepting both would make ``select`` and ``select_``-like
typos in tables silently win or lose against each other.  Values given by
the command line or the editor (:meth:`Settings.merged`) may use either
spelling, since there they come from flag names and JSON settings.

Rule selectors and scanner names are validated through callables supplied by
the caller (the rule registry and scanner table live elsewhere and this
module must not import them).
"""
from __future__ import annotations

import dataclasses
import difflib
import hashlib
import json
import os
import re
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Tuple, Union


def _toml() -> Any:
    """The TOML parser, imported when a configuration file is first read
    (its regexes cost ~10-20 ms of every start otherwise, config or not)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised only on old interpreters
        import tomli as tomllib
    return tomllib


__all__ = [
    "CONFIG_FILE_NAMES",
    "DEFAULT_EXCLUDE",
    "LEVELS",
    "ConfigError",
    "Settings",
    "clear_cache",
    "find_config",
    "FolderVerdict",
    "is_included",
    "load_config_file",
    "per_file_ignores_for",
    "settings_for",
    "settings_to_dict",
]

#: Severity levels, most severe first.
LEVELS: Tuple[str, ...] = ("error", "warning", "info", "hint")

#: Names looked for in each directory, in order of precedence.
CONFIG_FILE_NAMES: Tuple[str, ...] = (".irilint.toml", "irilint.toml", "pyproject.toml")

DEFAULT_EXCLUDE: Tuple[str, ...] = (
    ".git",
    ".hg",
    ".svn",
    "node_modules",
    ".venv",
    "venv",
    "__pycache__",
    ".irilint_cache",
    ".tox",
    "build",
    "dist",
)

DEFAULT_MAX_FILE_SIZE = 10_000_000
DEFAULT_FAIL_LEVEL = "warning"
DEFAULT_DEBOUNCE_MS = 300

Validator = Optional[Callable[[str], bool]]

_PYPROJECT_SECTION = "[tool.irilint]"


class ConfigError(Exception):
    """A configuration file or override that cannot be used.

    ``path`` is the file (or a description of the source such as
    ``"command line"``), ``key`` the offending key (``None`` when the whole
    file is at fault, e.g. broken TOML), ``message`` the explanation.
    """

    def __init__(
        self,
        path: str,
        key: Optional[str],
        message: str,
        *,
        section: Optional[str] = None,
        name_key: bool = True,
    ) -> None:
        self.path = str(path)
        self.key = key
        self.message = message
        self.section = section
        # Unknown-key messages already name the key; everything else is
        # prefixed with it so the user knows which line to look at.
        self._name_key = name_key and key is not None
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.section} " if self.section else ""
        what = f"key {self.key!r}: " if self._name_key else ""
        return f"{self.path}: {where}{what}{self.message}"

    def __reduce__(self):  # keep pickling (multiprocessing) working
        return (_rebuild_config_error, (self.path, self.key, self.message, self.section, self._name_key))


def _rebuild_config_error(path, key, message, section, name_key):  # pragma: no cover - trivial
    return ConfigError(path, key, message, section=section, name_key=name_key)


# ---------------------------------------------------------------------------
# Settings


@dataclass(frozen=True)
class Settings:
    """Effective settings for one file.

    Everything is immutable (tuples, tuples of pairs) so that a ``Settings``
    is hashable and can key caches.  Tables are stored sorted by key so that
    two files that differ only in key order give equal settings and the same
    :meth:`fingerprint`.
    """

    #: ``None`` means "the registry's default selection".
    select: Optional[Tuple[str, ...]] = None
    ignore: Tuple[str, ...] = ()
    extend_select: Tuple[str, ...] = ()
    extend_ignore: Tuple[str, ...] = ()
    #: (selector, level) pairs.
    severity: Tuple[Tuple[str, str], ...] = ()
    #: (glob, selectors) pairs.
    per_file_ignores: Tuple[Tuple[str, Tuple[str, ...]], ...] = ()
    #: Empty means "every file".
    include: Tuple[str, ...] = ()
    exclude: Tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: Tuple[str, ...] = ()
    #: (".ext", scanner name) pairs; extensions are lower-case with a dot.
    extensions: Tuple[Tuple[str, str], ...] = ()
    protected_domains: Tuple[str, ...] = ()
    #: Compare hosts with the well-known domains too (Chromium's top-domain
    #: list, irilint.well_known_domains): opt-in.
    well_known_domains: bool = False
    allowed_scripts: Tuple[str, ...] = ()
    max_file_size: int = DEFAULT_MAX_FILE_SIZE
    fail_level: str = DEFAULT_FAIL_LEVEL
    #: Milliseconds the language server waits after an edit before linting.
    debounce: int = DEFAULT_DEBOUNCE_MS
    #: The configuration file these settings came from, if any.
    source: Optional[str] = None

    # -- convenient views -------------------------------------------------

    @property
    def root(self) -> Optional[Path]:
        """Directory that relative globs are anchored to (the config's)."""
        if self.source is None:
            return None
        return Path(self.source).parent

    @property
    def severity_map(self) -> Dict[str, str]:
        return dict(self.severity)

    @property
    def extension_map(self) -> Dict[str, str]:
        return dict(self.extensions)

    @property
    def per_file_ignores_map(self) -> Dict[str, Tuple[str, ...]]:
        return dict(self.per_file_ignores)

    def scanner_for(self, path: Union[str, Path]) -> Optional[str]:
        """The scanner configured for ``path``'s extension, if any.

        The longest matching suffix wins, so ``.tar.gz``-style compound
        extensions can be configured next to ``.gz``.
        """
        name = os.path.basename(os.fspath(path)).lower()
        best: Optional[Tuple[int, str]] = None
        for ext, scanner in self.extensions:
            if name.endswith(ext) and (best is None or len(ext) > best[0]):
                best = (len(ext), scanner)
        return None if best is None else best[1]

    def fingerprint(self) -> str:
        """A stable hash of these settings, usable as a cache key.

        It includes ``source`` because relative globs (per-file-ignores,
        include, exclude) are anchored at the config's directory: the same
        text in another directory can mean different things for a file.
        """
        payload = json.dumps(
            {"v": 1, "settings": settings_to_dict(self)},
            sort_keys=True,
            separators=(",", ":"),
            ensure_ascii=False,
        )
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()

    def merged(
        self,
        overrides: Optional[Mapping[str, Any]],
        *,
        source: str = "command line",
        validate_selector: Validator = None,
        validate_scanner: Validator = None,
    ) -> "Settings":
        """Return these settings with ``overrides`` applied.

        Keys may be kebab-case or snake_case; a ``None`` value means "not
        set" (editors send nulls for unset options).  Values are validated
        exactly like file values; errors name ``source``.

        Semantics, chosen so that an override behaves like a later layer:

        * scalars and plain lists (``ignore``, ``include``, ``exclude``, ...)
          replace the value;
        * ``select`` replaces the selection *and* drops the file's
          ``extend-select``, because a selection given on the command line is
          meant to be the whole selection;
        * ``extend-*`` lists are appended to the current ones;
        * tables (``severity``, ``per-file-ignores``, ``extensions``) are
          merged key by key, the override winning.
        """
        if not overrides:
            return self
        normalized: Dict[str, Any] = {}
        for key, value in overrides.items():
            if value is None:
                continue
            kebab = str(key).replace("_", "-")
            normalized[kebab] = value
        origin = _Origin(source, None)
        parsed = _parse_table(
            normalized,
            origin,
            validate_selector=validate_selector,
            validate_scanner=validate_scanner,
        )
        changes: Dict[str, Any] = {}
        for field_name, value in parsed.items():
            if field_name == "select":
                changes["select"] = value
                changes.setdefault("extend_select", ())
            elif field_name in ("extend_select", "extend_ignore", "extend_exclude"):
                base = changes.get(field_name, getattr(self, field_name))
                changes[field_name] = _dedupe(tuple(base) + tuple(value))
            elif field_name in ("severity", "per_file_ignores", "extensions"):
                table = dict(getattr(self, field_name))
                table.update(value)
                changes[field_name] = tuple(sorted(table.items()))
            else:
                changes[field_name] = value
        # "select" cleared extend_select above; the override's own
        # extend-select (handled in the same loop) must survive that.
        if "select" in parsed and "extend_select" in parsed:
            changes["extend_select"] = _dedupe(tuple(parsed["extend_select"]))
        return dataclasses.replace(self, **_freeze_fields(changes))


def settings_to_dict(settings: Settings) -> Dict[str, Any]:
    """Settings as plain data with kebab-case keys (for printing or JSON).

    ``None`` values (an unset ``select``, no ``source``) are left out so the
    result can be written as TOML, which has no null.
    """
    out: Dict[str, Any] = {}
    for field in dataclasses.fields(settings):
        value = getattr(settings, field.name)
        if value is None:
            continue
        key = field.name.replace("_", "-")
        if field.name in ("severity", "extensions"):
            out[key] = {k: v for k, v in value}
        elif field.name == "per_file_ignores":
            out[key] = {k: list(v) for k, v in value}
        elif isinstance(value, tuple):
            out[key] = list(value)
        else:
            out[key] = value
    return out


# ---------------------------------------------------------------------------
# Validation


@dataclass(frozen=True)
class _Origin:
    path: str
    section: Optional[str]

    def error(self, key: Optional[str], message: str, *, name_key: bool = True) -> ConfigError:
        return ConfigError(self.path, key, message, section=self.section, name_key=name_key)


def _type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    if isinstance(value, (list, tuple)):
        return "list"
    if isinstance(value, dict):
        return "table"
    return type(value).__name__


def _string_list(
    origin: _Origin, key: str, value: Any, what: str = "a list of strings", prefix: str = ""
) -> Tuple[str, ...]:
    # A bare string is refused rather than wrapped: `select = "IRI"` is far
    # more often a mistake for a list than a deliberate one-element list, and
    # the error says exactly what to write.
    if not isinstance(value, (list, tuple)):
        raise origin.error(key, f"{prefix}expected {what}, got {_type_name(value)}")
    items: List[str] = []
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise origin.error(key, f"{prefix}expected {what}, but item {i} is {_type_name(item)}")
        if not item.strip():
            raise origin.error(key, f"{prefix}expected {what}, but item {i} is empty")
        items.append(item.strip())
    return tuple(items)


def _level(origin: _Origin, key: str, value: Any, prefix: str = "") -> str:
    choices = ", ".join(repr(level) for level in LEVELS)
    if not isinstance(value, str):
        raise origin.error(key, f"{prefix}expected one of {choices}, got {_type_name(value)}")
    if value.lower() not in LEVELS:
        raise origin.error(key, f"{prefix}expected one of {choices}, got {value!r}")
    return value.lower()


def _check_selectors(origin: _Origin, key: str, selectors: Iterable[str], validate: Validator, prefix: str = "") -> None:
    if validate is None:
        return
    for selector in selectors:
        if not validate(selector):
            raise origin.error(key, f"{prefix}unknown rule selector {selector!r}")


def _table(origin: _Origin, key: str, value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise origin.error(key, f"expected a table of {what}, got {_type_name(value)}")
    return value


def _int(origin: _Origin, key: str, value: Any, *, minimum: int, what: str) -> int:
    # bool is an int subclass; `max-file-size = true` is a mistake, not 1.
    if isinstance(value, bool) or not isinstance(value, int):
        raise origin.error(key, f"expected {what}, got {_type_name(value)}")
    if value < minimum:
        raise origin.error(key, f"expected {what}, got {value}")
    return value


_DOMAIN_FORBIDDEN = re.compile(r"[\s/:@?#\\]")


def _parse_select_like(origin, key, value, validate_selector, validate_scanner):
    items = _string_list(origin, key, value)
    _check_selectors(origin, key, items, validate_selector)
    return items


def _parse_globs(origin, key, value, validate_selector, validate_scanner):
    return _string_list(origin, key, value, "a list of glob strings")


def _parse_severity(origin, key, value, validate_selector, validate_scanner):
    table = _table(origin, key, value, "rule = level")
    out = {}
    for selector, level in table.items():
        prefix = f"rule {selector!r}: "
        _check_selectors(origin, key, [selector], validate_selector)
        out[selector] = _level(origin, key, level, prefix)
    return out


def _parse_per_file_ignores(origin, key, value, validate_selector, validate_scanner):
    table = _table(origin, key, value, "glob = [rule selectors]")
    out = {}
    for pattern, selectors in table.items():
        prefix = f"pattern {pattern!r}: "
        items = _string_list(origin, key, selectors, prefix=prefix)
        _check_selectors(origin, key, items, validate_selector, prefix)
        out[pattern] = items
    return out


def _parse_extensions(origin, key, value, validate_selector, validate_scanner):
    table = _table(origin, key, value, "extension = scanner")
    out = {}
    for ext, scanner in table.items():
        prefix = f"extension {ext!r}: "
        if not isinstance(scanner, str) or not scanner.strip():
            shown = _type_name(scanner) if not isinstance(scanner, str) else "an empty string"
            raise origin.error(key, f"{prefix}expected a scanner name, got {shown}")
        scanner = scanner.strip()
        if validate_scanner is not None and not validate_scanner(scanner):
            raise origin.error(key, f"{prefix}unknown scanner {scanner!r}")
        norm = ext.strip().lower()
        if not norm or norm == ".":
            raise origin.error(key, f"{prefix}expected a file extension such as '.md'")
        if not norm.startswith("."):
            norm = "." + norm
        out[norm] = scanner
    return out


def _parse_domains(origin, key, value, validate_selector, validate_scanner):
    items = _string_list(origin, key, value)
    for item in items:
        if _DOMAIN_FORBIDDEN.search(item):
            raise origin.error(key, f"{item!r} is not a domain name")
    return items


def _parse_bool(origin, key, value, validate_selector, validate_scanner):
    if not isinstance(value, bool):
        raise origin.error(key, f"expected true or false, got {_type_name(value)}")
    return value


def _parse_scripts(origin, key, value, validate_selector, validate_scanner):
    return _string_list(origin, key, value)


def _parse_max_file_size(origin, key, value, validate_selector, validate_scanner):
    return _int(origin, key, value, minimum=1, what="a positive integer (bytes)")


def _parse_fail_level(origin, key, value, validate_selector, validate_scanner):
    return _level(origin, key, value)


def _parse_debounce(origin, key, value, validate_selector, validate_scanner):
    return _int(origin, key, value, minimum=0, what="a non-negative integer (milliseconds)")


#: kebab-case key -> parser.  Field names are the snake_case spelling.
_PARSERS: Dict[str, Callable[..., Any]] = {
    "select": _parse_select_like,
    "ignore": _parse_select_like,
    "extend-select": _parse_select_like,
    "extend-ignore": _parse_select_like,
    "severity": _parse_severity,
    "per-file-ignores": _parse_per_file_ignores,
    "include": _parse_globs,
    "exclude": _parse_globs,
    "extend-exclude": _parse_globs,
    "extensions": _parse_extensions,
    "protected-domains": _parse_domains,
    "well-known-domains": _parse_bool,
    "allowed-scripts": _parse_scripts,
    "max-file-size": _parse_max_file_size,
    "fail-level": _parse_fail_level,
    "debounce": _parse_debounce,
}


def _unknown_key_message(key: str) -> str:
    kebab = key.replace("_", "-")
    if kebab in _PARSERS:
        return f"unknown key {key!r} (did you mean {kebab!r}?)"
    close = difflib.get_close_matches(kebab, list(_PARSERS), n=1, cutoff=0.6)
    if close:
        return f"unknown key {key!r} (did you mean {close[0]!r}?)"
    return f"unknown key {key!r}"


def _parse_table(
    table: Mapping[str, Any],
    origin: _Origin,
    *,
    validate_selector: Validator,
    validate_scanner: Validator,
) -> Dict[str, Any]:
    """Validate a kebab-case table; return field-name -> frozen value."""
    parsed: Dict[str, Any] = {}
    for key, value in table.items():
        parser = _PARSERS.get(key)
        if parser is None:
            raise origin.error(key, _unknown_key_message(key), name_key=False)
        parsed[key.replace("-", "_")] = parser(origin, key, value, validate_selector, validate_scanner)
    return parsed


def _dedupe(items: Tuple[str, ...]) -> Tuple[str, ...]:
    return tuple(dict.fromkeys(items))


def _freeze_fields(values: Mapping[str, Any]) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for name, value in values.items():
        if isinstance(value, dict):
            value = tuple(sorted(value.items()))
        out[name] = value
    return out


# ---------------------------------------------------------------------------
# Loading and finding


def _read_toml(path: Path) -> Dict[str, Any]:
    try:
        data = path.read_bytes()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise ConfigError(str(path), None, f"cannot read: {reason}") from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(str(path), None, f"invalid TOML: not UTF-8 at byte {exc.start}") from exc
    tomllib = _toml()
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(str(path), None, f"invalid TOML: {exc}") from exc


def _irilint_table(path: Path, document: Mapping[str, Any]) -> Tuple[Optional[Mapping[str, Any]], Optional[str]]:
    """The table holding our keys, and the section name used in messages."""
    if path.name == "pyproject.toml":
        tool = document.get("tool")
        if not isinstance(tool, Mapping) or "irilint" not in tool:
            return None, _PYPROJECT_SECTION
        table = tool["irilint"]
        if not isinstance(table, Mapping):
            raise ConfigError(str(path), "tool.irilint", f"expected a table, got {_type_name(table)}")
        return table, _PYPROJECT_SECTION
    return document, None


def load_config_file(
    path: Union[str, Path],
    *,
    validate_selector: Validator = None,
    validate_scanner: Validator = None,
) -> Settings:
    """Load and validate one configuration file.

    A ``pyproject.toml`` without ``[tool.irilint]`` gives default settings
    (with ``source`` set), so that ``--config pyproject.toml`` is not an error.
    """
    path = Path(os.path.abspath(os.fspath(path)))
    document = _read_toml(path)
    table, section = _irilint_table(path, document)
    if table is None:
        return Settings(source=str(path))
    parsed = _parse_table(
        table,
        _Origin(str(path), section),
        validate_selector=validate_selector,
        validate_scanner=validate_scanner,
    )
    return Settings(source=str(path), **_freeze_fields(parsed))


def _pyproject_has_table(path: Path) -> bool:
    # Cheap pre-check: most pyproject.toml files never mention us, and a
    # broken pyproject.toml that is not ours must not stop the linter.
    try:
        raw = path.read_bytes()
    except OSError:
        return False
    if b"irilint" not in raw:
        return False
    table, _ = _irilint_table(path, _read_toml(path))
    return table is not None


def _config_in_dir(directory: Path) -> Optional[Path]:
    for name in CONFIG_FILE_NAMES:
        candidate = directory / name
        if not candidate.is_file():
            continue
        if name == "pyproject.toml" and not _pyproject_has_table(candidate):
            continue
        return candidate
    return None


_lock = threading.RLock()
#: directory -> nearest config path (or None)
_dir_cache: Dict[str, Optional[Path]] = {}
#: (config path, validators) -> Settings or ConfigError
_settings_cache: Dict[Tuple[Optional[str], Validator, Validator], Union[Settings, ConfigError]] = {}
#: (base settings, overrides key, source, validators) -> Settings or ConfigError
_merged_cache: Dict[Tuple[Any, ...], Union[Settings, ConfigError]] = {}


def clear_cache() -> None:
    """Forget every lookup (call when a config file is created/edited/deleted)."""
    with _lock:
        _dir_cache.clear()
        _settings_cache.clear()
        _merged_cache.clear()


def _start_dir(start: Union[str, Path]) -> Path:
    p = Path(os.path.abspath(os.fspath(start)))
    if not p.is_dir():
        p = p.parent
    return p


def find_config(start: Union[str, Path]) -> Optional[Path]:
    """The nearest configuration file for ``start`` (a file or directory).

    Results are cached per directory, including for every directory passed
    on the way up, so a whole tree costs one walk.
    """
    directory = _start_dir(start)
    visited: List[str] = []
    found: Optional[Path] = None
    current = directory
    while True:
        key = str(current)
        with _lock:
            if key in _dir_cache:
                found = _dir_cache[key]
                break
        visited.append(key)
        found = _config_in_dir(current)
        if found is not None:
            break
        parent = current.parent
        if parent == current:
            break
        current = parent
    with _lock:
        for key in visited:
            _dir_cache[key] = found
    return found


def _cached(cache: Dict, key: Tuple[Any, ...], compute: Callable[[], Settings]) -> Settings:
    with _lock:
        hit = cache.get(key)
    if hit is None:
        try:
            hit = compute()
        except ConfigError as exc:
            hit = exc
        with _lock:
            cache[key] = hit
    if isinstance(hit, ConfigError):
        # A broken config is reported for every file under it, but parsed
        # only once.
        raise hit
    return hit


def settings_for(
    path: Union[str, Path],
    overrides: Optional[Mapping[str, Any]] = None,
    *,
    overrides_source: str = "command line",
    validate_selector: Validator = None,
    validate_scanner: Validator = None,
) -> Settings:
    """Effective settings for ``path``: its nearest config plus ``overrides``."""
    config = find_config(path)
    base = _cached(
        _settings_cache,
        (None if config is None else str(config), validate_selector, validate_scanner),
        lambda: Settings()
        if config is None
        else load_config_file(config, validate_selector=validate_selector, validate_scanner=validate_scanner),
    )
    if not overrides:
        return base
    overrides_key = json.dumps(dict(overrides), sort_keys=True, default=repr)
    return _cached(
        _merged_cache,
        (base, overrides_key, overrides_source, validate_selector, validate_scanner),
        lambda: base.merged(
            overrides,
            source=overrides_source,
            validate_selector=validate_selector,
            validate_scanner=validate_scanner,
        ),
    )


# ---------------------------------------------------------------------------
# Globs: include / exclude / per-file-ignores
#
# Semantics follow .gitignore closely, because that is what users already
# know:
#   * a pattern without a slash matches a file or directory name at any
#     depth (`node_modules`, `*.md`);
#   * a pattern with a slash is anchored at the config's directory
#     (`docs/*.md`, `/CHANGELOG.md`); a leading slash only anchors;
#   * `*` and `?` do not cross `/`; `**` does (`docs/**/*.md`);
#   * a trailing slash restricts the pattern to directories;
#   * a pattern that matches a directory applies to everything below it.


@dataclass(frozen=True)
class _Glob:
    regex: "re.Pattern[str]"
    anchored: bool
    dir_only: bool


_glob_cache: Dict[str, _Glob] = {}


def _translate(pattern: str) -> str:
    out: List[str] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "*":
            if pattern.startswith("**", i):
                at_start = i == 0 or pattern[i - 1] == "/"
                j = i + 2
                if at_start and j < n and pattern[j] == "/":
                    # "**/" : zero or more whole directories
                    out.append("(?:.*/)?")
                    i = j + 1
                    continue
                out.append(".*")
                i = j
                continue
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            j = i + 1
            if j < n and pattern[j] in "!^":
                j += 1
            if j < n and pattern[j] == "]":
                j += 1
            while j < n and pattern[j] != "]":
                j += 1
            if j >= n:
                out.append(re.escape(c))  # unclosed: a literal bracket
            else:
                body = pattern[i + 1 : j]
                if body[:1] in ("!", "^"):
                    body = "^" + body[1:]
                body = body.replace("\\", "\\\\")
                out.append(f"[{body}]")
                i = j
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


def _compile(pattern: str) -> _Glob:
    cached = _glob_cache.get(pattern)
    if cached is not None:
        return cached
    p = pattern.replace("\\", "/") if os.sep == "\\" else pattern
    dir_only = p.endswith("/")
    p = p.rstrip("/")
    anchored = "/" in p
    p = p.lstrip("/")
    flags = re.IGNORECASE if os.name == "nt" else 0
    glob = _Glob(re.compile(_translate(p) + r"\Z", flags), anchored, dir_only)
    _glob_cache[pattern] = glob
    return glob


def _relative_parts(settings: Settings, path: Union[str, Path]) -> List[str]:
    """``path`` relative to the config's directory, as components.

    Without a config (or for a path outside its directory) the current
    directory is used, and failing that the absolute path, so that
    unanchored patterns such as ``node_modules`` still work.
    """
    absolute = os.path.abspath(os.fspath(path))
    bases = []
    if settings.root is not None:
        bases.append(str(settings.root))
    bases.append(os.getcwd())
    for base in bases:
        # Below a normalized absolute base, relpath is what follows it
        # (relpath itself costs more than the glob matching).  relpath
        # judges Windows paths (compared without case) and POSIX's "//x".
        if (os.name != "nt" and os.path.isabs(base) and os.path.normpath(base) == base
                and not base.startswith("//") and not absolute.startswith("//")):
            prefix = base if base.endswith(os.sep) else base + os.sep
            if absolute.startswith(prefix):
                return [part for part in absolute[len(prefix):].split(os.sep) if part]
            if absolute == base:
                return []
            continue  # not below it: relpath would start with ".."
        try:
            rel = os.path.relpath(absolute, base)
        except ValueError:  # different drives on Windows
            continue
        if rel != os.pardir and not rel.startswith(os.pardir + os.sep):
            return [part for part in rel.split(os.sep) if part not in ("", ".")]
    drive, rest = os.path.splitdrive(absolute)
    return [part for part in rest.split(os.sep) if part]


def _matches(glob: _Glob, parts: List[str], is_dir: bool) -> bool:
    n = len(parts)
    for i in range(1, n + 1):
        # parts[:i] for i < n is an ancestor directory of the path.
        if glob.dir_only and i == n and not is_dir:
            continue
        candidate = "/".join(parts[:i]) if glob.anchored else parts[i - 1]
        if glob.regex.match(candidate):
            return True
    return False


#: patterns -> their globs joined into one regex per (anchored, dir_only)
_joined_cache: Dict[Tuple[str, ...], Tuple[_Glob, ...]] = {}


def _joined(patterns: Tuple[str, ...]) -> Tuple[_Glob, ...]:
    """The globs of ``patterns``, those alike (anchored, directories only)
    joined into one alternation: one regex match per path part instead of
    one per pattern (every path of a walk is tested against the excludes)."""
    joined = _joined_cache.get(patterns)
    if joined is None:
        kinds: Dict[Tuple[bool, bool], List["re.Pattern[str]"]] = {}
        for pattern in patterns:
            glob = _compile(pattern)
            kinds.setdefault((glob.anchored, glob.dir_only), []).append(glob.regex)
        joined = tuple(
            _Glob(rxs[0] if len(rxs) == 1 else re.compile("|".join("(?:%s)" % rx.pattern for rx in rxs),
                                                          rxs[0].flags),
                  anchored, dir_only)
            for (anchored, dir_only), rxs in kinds.items())
        if len(_joined_cache) >= 256:
            _joined_cache.clear()
        _joined_cache[patterns] = joined
    return joined


def _any_match(patterns: Iterable[str], parts: List[str], is_dir: bool) -> bool:
    return any(_matches(glob, parts, is_dir) for glob in _joined(tuple(patterns)))


class FolderVerdict:
    """:func:`is_included` for the entries of one folder: ``verdict(name,
    is_dir)`` is ``is_included(settings, folder / name, is_dir=is_dir)``.

    A pattern matches an entry's path when it matches one of its folder's
    parts (the same for every entry of the folder, worked out here once)
    or the entry's own last part: each entry costs the matching of its
    name alone, not the path's parts and every ancestor again.
    ``folder_parts``: the folder's parts below the settings' base, as
    :func:`_relative_parts` gives them for a path in it, less the name."""

    __slots__ = ("_excluded", "_included", "_exclude_last", "_include_last", "_any_include", "_above")

    def __init__(self, settings: Settings, folder_parts: List[str]) -> None:
        excludes = _joined(tuple(settings.exclude)) + _joined(tuple(settings.extend_exclude))
        includes = _joined(tuple(settings.include))
        # An ancestor folder matched (a directory-only pattern too: it is one).
        self._excluded = any(_matches(g, folder_parts, True) for g in excludes)
        self._any_include = bool(settings.include)
        self._included = any(_matches(g, folder_parts, True) for g in includes)
        #: what an anchored pattern sees before the name
        self._above = "/".join(folder_parts) + "/" if folder_parts else ""
        self._exclude_last = tuple((g.regex.match, g.anchored, g.dir_only) for g in excludes)
        self._include_last = tuple((g.regex.match, g.anchored, g.dir_only) for g in includes)

    def __call__(self, name: str, is_dir: bool) -> bool:
        if self._excluded:
            return False
        above = self._above
        for match, anchored, dir_only in self._exclude_last:
            if (is_dir or not dir_only) and match(above + name if anchored else name):
                return False
        # Directories are tested against the excludes only (is_included).
        if is_dir or not self._any_include or self._included:
            return True
        for match, anchored, dir_only in self._include_last:
            if not dir_only and match(above + name if anchored else name):
                return True
        return False


def per_file_ignores_for(settings: Settings, path: Union[str, Path]) -> Tuple[str, ...]:
    """Rule selectors that ``per-file-ignores`` turns off for ``path``."""
    if not settings.per_file_ignores:
        return ()
    parts = _relative_parts(settings, path)
    if not parts:
        return ()
    selected: List[str] = []
    for pattern, selectors in settings.per_file_ignores:
        if _matches(_compile(pattern), parts, False):
            selected.extend(selectors)
    return _dedupe(tuple(selected))


def is_included(settings: Settings, path: Union[str, Path], *, is_dir: Optional[bool] = None) -> bool:
    """Whether ``path`` should be checked under ``include``/``exclude``.

    Directories are only tested against the exclude lists: ``include``
    patterns such as ``docs/**/*.md`` describe files, and applying them to
    ``docs`` itself would prune the walk before reaching any file.
    """
    if is_dir is None:
        is_dir = os.path.isdir(os.fspath(path))
    parts = _relative_parts(settings, path)
    if not parts:
        return True
    if _any_match(settings.exclude, parts, is_dir) or _any_match(settings.extend_exclude, parts, is_dir):
        return False
    if is_dir or not settings.include:
        return True
    return _any_match(settings.include, parts, is_dir)

"""Editor settings and project configuration for the language server.

The editor may set the same keys as the configuration file (kebab-case or
snake_case: ``select``, ``ignore``, ``extend-select``, ``severity``,
``per-file-ignores``, ``include``, ``exclude``, ``extensions``,
``protected-domains``, ``well-known-domains``, ``allowed-scripts``,
``max-file-size``, ``fail-level``, ``debounce``), in three ways:

* ``initializationOptions`` (either the keys themselves or
  ``{"irilint": {...}}``);
* ``workspace/configuration`` with section ``"irilint"``, asked after
  ``initialized`` and again on every ``workspace/didChangeConfiguration``
  (or change of workspace folders) when the client supports it: once
  without a scope and once per workspace folder with the folder as
  ``scopeUri``, so each folder of a multi-root workspace has its own
  settings (a file takes those of the innermost folder that holds it);
* ``workspace/didChangeConfiguration`` ``settings`` (``{"irilint": {...}}``)
  from clients without ``workspace/configuration``.

Precedence
----------
**The project's configuration file is the base; editor settings override
only the keys they set.**  For each document the nearest ``.irilint.toml``,
``irilint.toml`` or ``pyproject.toml`` ``[tool.irilint]`` is found exactly as
``irilint check`` finds it, then the editor's keys are applied on top with
the command line's semantics (:meth:`irilint.config.Settings.merged`):
scalars and plain lists replace, ``select`` replaces the whole selection,
``extend-*`` lists append, and tables (``severity``, ``per-file-ignores``,
``extensions``) merge key by key.  Keys the editor leaves unset (or sets to
null) keep the project's values, so a project's choices hold for everyone
and a user can still tune a key in their editor.  Among the editor's own
sources, ``workspace/configuration`` (or ``didChangeConfiguration``) wins
over ``initializationOptions`` key by key.

Besides those keys, the editor may set ``inlayHints`` (true by default;
false turns the inlay hints off), also per folder.

Unknown keys from the editor are ignored (and logged once); an invalid value
makes the server ignore the editor settings and say so once
(``window/showMessage``); a broken configuration file makes it use the
defaults plus the editor settings for the files under it, also said once.

A change to a configuration file takes effect without a restart: the
server watches ``**/pyproject.toml``, ``**/irilint.toml`` and
``**/.irilint.toml`` (dynamically registered when the client allows it) and
re-reads them on ``didSave`` too, then lints the open documents again.
"""
from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
from typing import Any, Callable, Dict, List, Mapping, Optional, Set, Tuple

from irilint import config
from irilint.config import ConfigError, Settings

logger = logging.getLogger(__name__)

SECTION = "irilint"
EDITOR_SOURCE = "editor settings"
CONFIG_FILE_NAMES = tuple(config.CONFIG_FILE_NAMES)
WATCH_GLOBS = tuple("**/" + name for name in CONFIG_FILE_NAMES)

#: The keys an editor may set: the configuration file's keys.
KNOWN_KEYS = frozenset(
    f.name.replace("_", "-") for f in dataclasses.fields(Settings) if f.name != "source"
)


#: initializationOptions keys that are not settings (see server.py)
SERVER_OPTIONS = frozenset({"positionEncoding", "position-encoding", "position_encoding"})
#: editor-only options (not configuration file keys), with their defaults:
#: ``inlayHints`` turns the inlay hints (irilint.lsp.inlay_hints) off
EDITOR_OPTIONS = {"inlayHints": True}
_EDITOR_OPTION_SPELLINGS = {
    spelling: name for name in EDITOR_OPTIONS
    for spelling in (name, "".join("-" + c.lower() if c.isupper() else c for c in name),
                     "".join("_" + c.lower() if c.isupper() else c for c in name))}


def _section(value: Any) -> Dict[str, Any]:
    """The irilint settings in a configuration payload: ``{"irilint": {..}}``
    or the keys themselves."""
    if not isinstance(value, Mapping):
        return {}
    inner = value.get(SECTION)
    table = inner if isinstance(inner, Mapping) else value
    return {k: v for k, v in table.items() if k not in SERVER_OPTIONS and k != SECTION}


def is_config_file(path: Optional[str]) -> bool:
    return bool(path) and os.path.basename(path) in CONFIG_FILE_NAMES  # type: ignore[arg-type]


class SettingsManager:
    """Holds the editor's settings and resolves the settings of a document."""

    def __init__(self, report: Optional[Callable[[str], None]] = None) -> None:
        self._init_options: Dict[str, Any] = {}
        self._editor: Dict[str, Any] = {}
        #: workspace folder path -> its own editor settings (asked with the
        #: folder as ``scopeUri``); a file takes its innermost folder's
        self._folders: Dict[str, Dict[str, Any]] = {}
        #: bumped whenever anything that settings depend on changes; results
        #: computed under an older generation are stale
        self.generation = 0
        self.root: Optional[str] = None
        self._report = report or (lambda message: None)
        self._reported: Set[str] = set()
        self._warned_keys: Set[str] = set()
        self._ready: Optional[asyncio.Event] = None
        self._ready_flag = False
        #: a lint stopped waiting for workspace/configuration
        self.gave_up_waiting = False
        self._cache: Dict[Tuple[Optional[str], int], Settings] = {}

    # -- sources -----------------------------------------------------------
    def set_initialization_options(self, options: Any) -> None:
        self._init_options = _section(options)
        self._changed()

    def set_editor_settings(self, value: Any) -> None:
        self._editor = _section(value)
        self._changed()

    def set_folder_settings(self, folders: Mapping[str, Any]) -> None:
        """The editor settings of each workspace folder (path -> the
        ``workspace/configuration`` answer for its ``scopeUri``); replaces
        what was known of every folder."""
        self._folders = {os.path.normpath(path): _section(value) for path, value in folders.items()}
        self._changed()

    def _editor_for(self, path: Optional[str]) -> Dict[str, Any]:
        """The editor settings that apply to ``path``: its innermost
        workspace folder's, else the ones asked without a scope."""
        if path and self._folders:
            best = None
            for folder in self._folders:
                if (path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)) \
                        and (best is None or len(folder) > len(best)):
                    best = folder
            if best is not None:
                return self._folders[best]
        return self._editor

    def editor_option(self, name: str, path: Optional[str] = None) -> Any:
        """An editor-only option (:data:`EDITOR_OPTIONS`) for ``path``:
        the folder's or the workspace's ``workspace/configuration`` value,
        else initializationOptions, else the default."""
        for source in (self._editor_for(path), self._init_options):
            for key, value in source.items():
                if _EDITOR_OPTION_SPELLINGS.get(str(key)) == name and value is not None:
                    return value
        return EDITOR_OPTIONS[name]

    def files_changed(self) -> None:
        """A configuration file was created, edited or deleted."""
        config.clear_cache()
        self._changed()

    def _changed(self) -> None:
        self.generation += 1
        self._cache.clear()
        self._reported.clear()

    # -- readiness: documents opened before workspace/configuration answered
    def _event(self) -> asyncio.Event:
        if self._ready is None:
            self._ready = asyncio.Event()
            if self._ready_flag:
                self._ready.set()
        return self._ready

    def mark_ready(self) -> None:
        self._ready_flag = True
        if self._ready is not None:
            self._ready.set()

    async def wait_ready(self, timeout: float = 5.0) -> None:
        if self._ready_flag:
            return
        try:
            await asyncio.wait_for(self._event().wait(), timeout)
        except asyncio.TimeoutError:
            logger.warning("no answer to workspace/configuration; using the settings known so far")
            self.gave_up_waiting = True
            self.mark_ready()

    # -- resolution --------------------------------------------------------
    def overrides(self, path: Optional[str] = None) -> Dict[str, Any]:
        """The editor's keys for ``path`` (see :meth:`_editor_for`)."""
        merged: Dict[str, Any] = {}
        for source in (self._init_options, self._editor_for(path)):
            for key, value in source.items():
                kebab = str(key).replace("_", "-")
                if str(key) in _EDITOR_OPTION_SPELLINGS:
                    continue
                if kebab not in KNOWN_KEYS:
                    if kebab not in self._warned_keys:
                        self._warned_keys.add(kebab)
                        logger.info("ignoring unknown editor setting %r", key)
                    continue
                if value is None:
                    merged.pop(kebab, None)
                    continue
                merged[kebab] = value
        return merged

    def settings_for(self, path: Optional[str]) -> Settings:
        """Effective settings for a file (``None``: an untitled document,
        configured from the workspace root)."""
        key = (path, self.generation)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        start = path or self.root or os.getcwd()
        overrides = self.overrides(start)
        validate, validate_scanner = _validators()
        try:
            settings = config.settings_for(start, overrides or None, overrides_source=EDITOR_SOURCE,
                                           validate_selector=validate,
                                           validate_scanner=validate_scanner)
        except ConfigError as exc:
            self._say(str(exc))
            if exc.path == EDITOR_SOURCE:
                settings = self._without_overrides(start, validate, validate_scanner)
            else:  # the project file is broken: defaults + editor settings
                try:
                    settings = Settings().merged(overrides or None, source=EDITOR_SOURCE,
                                                 validate_selector=validate,
                                                 validate_scanner=validate_scanner)
                except ConfigError as exc2:
                    self._say(str(exc2))
                    settings = Settings()
        if len(self._cache) > 512:
            self._cache.clear()
        self._cache[key] = settings
        return settings

    def _without_overrides(self, start: str, validate: Any, validate_scanner: Any) -> Settings:
        try:
            return config.settings_for(start, validate_selector=validate,
                                       validate_scanner=validate_scanner)
        except ConfigError as exc:
            self._say(str(exc))
            return Settings()

    def _say(self, message: str) -> None:
        if message in self._reported:
            return
        self._reported.add(message)
        logger.warning("irilint configuration: %s", message)
        try:
            self._report(message)
        except Exception:  # pragma: no cover - reporting must not break linting
            logger.exception("cannot report a configuration error")

    def is_excluded(self, path: Optional[str], settings: Settings) -> bool:
        """Whether include/exclude keep ``path`` out (never for untitled
        documents: the user is looking at them)."""
        from irilint.project_files import is_excluded

        try:
            return is_excluded(settings, path)
        except Exception:  # pragma: no cover - a bad glob must not stop linting
            logger.exception("include/exclude failed for %s", path)
            return False


def _validators() -> Tuple[Optional[Callable[[str], bool]], Optional[Callable[[str], bool]]]:
    """The rule selector and scanner name validators (as ``irilint check``
    uses them), so the editor gets the same errors as the command line."""
    from irilint.rules.registry import is_selector

    try:
        from irilint.scanners import is_scanner_name
    except ImportError:  # pragma: no cover
        is_scanner_name = None  # type: ignore[assignment]
    return is_selector, is_scanner_name


def workspace_folders(ls: Any) -> List[Tuple[str, str]]:
    """The workspace folders as (URI, path) pairs (``file:`` folders only),
    else the root given at initialize."""
    from .documents import uri_to_path

    out = []
    try:
        folders = list(ls.workspace.folders.values())
    except Exception:  # before initialize there is no workspace
        folders = []
    for folder in folders:
        path = uri_to_path(folder.uri)
        if path:
            out.append((folder.uri, path))
    if not out and ls.settings.root:
        from pathlib import Path

        out.append((Path(ls.settings.root).absolute().as_uri(), ls.settings.root))
    return out

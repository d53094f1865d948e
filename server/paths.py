"""How paths are shown: relative to the working directory when they are
under it, as spelled otherwise; worked out cheaply for the paths of a walk."""
from __future__ import annotations

import os
from typing import Any, Dict


def _normal_relative(p: str) -> bool:
    """Whether a relative path is already normalized (no empty, "." or ".."
    part), so that ``os.path.relpath`` would return it unchanged.  Only
    where there is one separator (relpath turns "/" into "\\" on Windows)."""
    if os.altsep:
        return False
    return all(part and part != "." and part != ".." for part in p.split(os.sep))


def folder_of(path: str) -> str:
    """``os.path.dirname(path)``, without its cost in the common case (a
    head that does not end with a separator is what dirname returns)."""
    head, found, _ = path.rpartition(os.sep)
    if head and found and not os.altsep and not head.endswith(os.sep):
        return head
    return os.path.dirname(path)


#: folder as spelled -> whether it is a normalized relative path
_NORMAL_FOLDERS: Dict[str, bool] = {}


def display_path(p: str) -> str:
    folder, found, name = p.rpartition(os.sep)
    if found and name and name != "." and name != "..":
        # Most paths come from a walk, many to a folder: the folder's
        # spelling is tested once.
        normal = _NORMAL_FOLDERS.get(folder)
        if normal is None:
            if len(_NORMAL_FOLDERS) > 100000:
                _NORMAL_FOLDERS.clear()
            normal = _NORMAL_FOLDERS[folder] = bool(folder) and not os.path.isabs(folder) \
                and _normal_relative(folder)
    else:
        normal = not os.path.isabs(p) and _normal_relative(p)
    if normal:
        return p  # what relpath would give back, without its cost
    try:
        rel = os.path.relpath(p)
    except ValueError:
        return p
    return p if rel.startswith("..") else rel


def display_prefix(folder: str, cwd: str) -> Any:
    """How the paths of the entries of ``folder`` are shown: True (as they
    are: a normalized relative folder), the folder's path relative to
    ``cwd`` with a separator (``""`` for ``cwd`` itself) to put before the
    entry's name, or None (no shortcut: each path through relpath)."""
    if not folder or os.altsep:
        return None
    if not os.path.isabs(folder) and _normal_relative(folder):
        return True
    try:
        rel = os.path.relpath(folder, cwd)
    except ValueError:
        return None
    if rel.startswith(".."):
        # Outside: its entries are shown as spelled, as relpath leaves them
        # outside too; unless the folder holds the working directory (then
        # a name leads back in: "../b" is "."), and each path is worked out.
        return None if all(part == ".." for part in rel.split(os.sep)) else True
    return "" if rel == "." else rel + os.sep

"""Helpers the look-alike rules share: where a position of the decoded view
lies (component, host), how characters are listed in a message, and the
fixes that remove or replace a view's characters in the source.
"""
from __future__ import annotations

import re
from typing import FrozenSet, Iterable, List, Optional, Sequence

from irilint.convert import percent_encode
from irilint.unicode_security import COMMON, INHERITED, describe, quoted, script_extensions

from ..context import LITERAL, PERCENT, PUNYCODE, Component


_VIEW_TRAITS = ("non_ascii", "percent", "punycode")
_NON_ASCII_RE = re.compile("[^\x00-\x7f]")
_MARKERS = frozenset((COMMON, INHERITED))
_HEX = frozenset("0123456789ABCDEFabcdef")
_MAX_LISTED = 8


# ---------------------------------------------------------------------------
# Shared helpers
# ---------------------------------------------------------------------------

def _show(text: str, limit: int = 60) -> str:
    """Text for a message: invisible, bidi and control characters shown as
    ``<U+XXXX>`` so the message itself cannot be spoofed."""
    return quoted(text, limit)


def _list_chars(chars: Iterable[str]) -> str:
    """``U+XXXX NAME`` of each distinct character, in order of appearance."""
    seen: List[str] = []
    for c in chars:
        if c not in seen:
            seen.append(c)
    shown = ", ".join(describe(c) for c in seen[:_MAX_LISTED])
    if len(seen) > _MAX_LISTED:
        shown += " and %d more" % (len(seen) - _MAX_LISTED)
    return shown


def _component_at(ctx, i: int) -> Optional[Component]:
    return ctx.component_at(i)


def _where(ctx, i: int) -> str:
    """'the path segment 'abc'' for view offset ``i``."""
    comp = _component_at(ctx, i)
    if comp is not None:
        return "the %s %s" % (comp.label, _show(comp.text))
    return "the %s" % ctx.view_ref.component_at(i)


def _in_host(ctx, i: int) -> bool:
    vref = ctx.view_ref
    h = vref.host
    return h is not None and vref.host_kind == "reg-name" and h.start <= i < h.end


def _scripts_of(c: str) -> FrozenSet[str]:
    return script_extensions(c) - _MARKERS


def _removal_fix(ctx, i: int, title: str):
    """An unsafe fix that deletes view character ``i`` from the value: the
    character itself, its escape, or a re-encoded A-label."""
    view = ctx.view
    s, e = view.spans[i]
    origin = view.origins[i]
    if origin in (LITERAL, PERCENT):
        return ctx.replace(title + " (unsafe)", s, e, "", False)
    comp = _component_at(ctx, i)
    if comp is None or comp.kind != "host-label":
        return None
    k = i - comp.view_start
    label = comp.text[:k] + comp.text[k + 1:]
    if not label:
        return None
    if not label.isascii():
        try:
            label = "xn--" + label.encode("punycode").decode("ascii")
        except UnicodeError:  # pragma: no cover - punycode encodes any str
            return None
    return ctx.replace(title + " (unsafe; re-encodes the A-label)", s, e, label, False)


def _replacement(ctx, i: int, j: int, new_view_text: Sequence[str]) -> Optional[str]:
    """Value text replacing view characters ``[i, j)`` by ``new_view_text``
    (one string per view character), keeping each one's encoding; None if
    a character comes from an A-label."""
    view = ctx.view
    parts = []
    for k in range(i, j):
        o = view.origins[k]
        if o == PUNYCODE:
            return None
        t = new_view_text[k - i]
        parts.append(percent_encode(t) if o == PERCENT else t)
    return "".join(parts)

"""Rules about irilint itself: suppressions."""
from __future__ import annotations

from .registry import rule


@rule(name="unused-suppression", code="IRI901", family="meta", severity="warning",
      fix="safe", scope="suppressions", data_fix="sometimes",
      tags=("unnecessary",))
def unused_suppression(doc):
    """An ``irilint: ignore`` comment that suppresses nothing.

    ## What it does
    Flags ``irilint: ignore``, ``irilint: ignore[...]`` and
    ``irilint: ignore-file[...]`` comments when no finding on their line
    (or in their file) matched them.

    ## Why
    A stale suppression hides the next real problem on that line, and
    tells readers something that is no longer true.

    ## Example
    ``<!-- irilint: ignore[bidi-control] -->`` on a line whose IRI was
    fixed long ago.

    ## Fix safety
    Safe: removing the comment changes no IRI.  Where text outside comments
    is data (code, JSON, YAML, TOML, Turtle), a marker that is not alone in
    its comment may be in a string literal: removing it is unsafe there.

    ## Reference
    The irilint suppression syntax (README, "Suppressions").
    """
    # The engine decides which suppressions were used, after every other
    # rule ran; this function only carries the rule's identity and docs.
    return ()

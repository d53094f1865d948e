"""Rules about irilint itself: suppressions."""
from __future__ import annotations

from .registry import rule


@rule(name="unused-suppression", code="IRI901", family="meta", severity="warning",
      fix="safe", scope="suppressions", data_fix="sometimes",
      tags=("unnecessary",))
def unused_suppression(check):
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
    # ``check`` (irilint.suppressions.SuppressionCheck) comes after every other
    # rule ran and was suppressed.  A suppression that names only rules
    # that do not exist is unknown-suppression's, not also unused.
    only_unknown = {id(s) for s, bad in check.unknown() if len(bad) == len(s.selectors)}
    return check.unused_findings([s for s in check.suppressions if id(s) not in only_unknown])


@rule(name="unknown-suppression", code="IRI902", family="meta", severity="warning",
      fix="none", scope="suppressions")
def unknown_suppression(check):
    """An ``irilint: ignore[...]`` comment that names no rule irilint has.

    ## What it does
    Flags each name in the brackets of ``irilint: ignore[...]`` or
    ``irilint: ignore-file[...]`` that is not a rule name, a rule code, a
    code prefix (``IRI4``) or a family, on the misspelt name itself.  Such
    a suppression is not also reported by ``unused-suppression``, unless
    it names known rules too that it does not use.

    ## Why
    A misspelt name (``bad-percent-encodin``) suppresses nothing, and the
    finding it was meant to hide shows up anyway; "unused" would send the
    reader looking for a finding that is not there, while "unknown" says
    what is wrong.

    ## Example
    ``<!-- irilint: ignore[bidi-controls] -->``: the rule is
    ``bidi-control``.

    ## Fix safety
    None: which rule was meant is for a person to say (``irilint rules``
    lists them).

    ## Reference
    The irilint suppression syntax (README, "Suppressions").
    """
    return check.unknown_findings()

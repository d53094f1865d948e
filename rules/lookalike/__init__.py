"""Look-alike rules: confusables, scripts and invisibles (UTS #39, RFC 3987 s7.5).

Every rule here reads the decoded view (``ctx.view``), so a spoof hidden in
``%D0%B0`` or in an ``xn--`` label is found like a literal one, and points at
the escape or the A-label that hides it.  None of their fixes is safe: a
look-alike may be what the author meant, and only a person can tell.

One module per rule or close group: :mod:`.delimiters` (IRI201, IRI202),
:mod:`.scripts` (IRI203, IRI204), :mod:`.collisions` (IRI205),
:mod:`.invisible` (IRI206) and :mod:`.digits` (IRI207), with the helpers
they share in :mod:`.common`.  They are imported here in code order, which
registers the rules in that order, and the names other modules import from
``irilint.rules.lookalike`` are re-exported.
"""
from irilint.idn_display import TLD_SCRIPTS  # noqa: F401  (re-exported: the table moved to irilint.idn_display)

from .common import _show  # noqa: F401  (used by the idn-policy rules)
from .delimiters import (  # noqa: F401  (the private ones: used by the idn-policy rules)
    _delimiter_at,
    delimiter_imitated,
    delimiter_lookalike,
    fullwidth_form,
    is_fullwidth_form,
)
from .scripts import (  # noqa: F401  (the private ones: used by the idn-policy rules and tests)
    _allowed_scripts,
    _latin_lookalike_mix,
    _script_key,
    latin_reading,
    mixed_script_rule,
    whole_script_confusable_rule,
)
from .collisions import (  # noqa: F401
    MAX_IDENTITIES,
    LocalHosts,
    collision_message,
    confusable_collision,
    local_hosts,
    other_file_partner,
)
from .invisible import invisible_character, invisible_problem  # noqa: F401
from .digits import (  # noqa: F401  (the private ones: used by tests)
    _READS_AS,
    _digit_swaps,
    ascii_lookalike,
    digit_reading,
    english_words,
)

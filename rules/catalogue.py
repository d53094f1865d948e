"""Every rule's name, code, family and the module that registers it.

A result read from the cache names its rules, and printing it needs no
more of a rule than these: :func:`irilint.rules.registry.registered_rule`
gives the rule from this table without importing its module (nor the
checking code that module imports), which a warm run never runs.  Anything
else asked of such a rule imports its module first.

Kept in step with the rules by tests/test_registry_catalogue.py, whose
failure message is this file as it should be.
"""

#: name -> (code, family, module)
CATALOGUE = {
    "invalid-character": ("IRI001", "syntax", "irilint.rules.syntax"),
    "noncharacter": ("IRI002", "syntax", "irilint.rules.syntax"),
    "private-use-outside-query": ("IRI003", "syntax", "irilint.rules.syntax"),
    "invalid-scheme": ("IRI004", "syntax", "irilint.rules.syntax"),
    "invalid-port": ("IRI005", "syntax", "irilint.rules.syntax"),
    "invalid-ip-literal": ("IRI006", "syntax", "irilint.rules.syntax"),
    "bidi-control": ("IRI101", "bidi", "irilint.rules.bidi"),
    "bidi-control-encoded": ("IRI102", "bidi", "irilint.rules.bidi"),
    "bidi-mixed-direction": ("IRI103", "bidi", "irilint.rules.bidi"),
    "bidi-component-edge": ("IRI104", "bidi", "irilint.rules.bidi"),
    "idn-bidi-rule": ("IRI105", "bidi", "irilint.rules.bidi"),
    "delimiter-lookalike": ("IRI201", "lookalike", "irilint.rules.lookalike.delimiters"),
    "fullwidth-form": ("IRI202", "lookalike", "irilint.rules.lookalike.delimiters"),
    "mixed-script": ("IRI203", "lookalike", "irilint.rules.lookalike.scripts"),
    "whole-script-confusable": ("IRI204", "lookalike", "irilint.rules.lookalike.scripts"),
    "confusable-collision": ("IRI205", "lookalike", "irilint.rules.lookalike.collisions"),
    "invisible-character": ("IRI206", "lookalike", "irilint.rules.lookalike.invisible"),
    "ascii-lookalike": ("IRI207", "lookalike", "irilint.rules.lookalike.digits"),
    "idn-restricted-character": ("IRI208", "lookalike", "irilint.rules.idn_policy"),
    "idn-digit-lookalike": ("IRI209", "lookalike", "irilint.rules.idn_policy"),
    "idn-dangerous-pattern": ("IRI210", "lookalike", "irilint.rules.idn_policy"),
    "idn-tld-character": ("IRI211", "lookalike", "irilint.rules.idn_policy"),
    "not-nfc": ("IRI301", "normalization", "irilint.rules.normalization"),
    "compatibility-character": ("IRI302", "normalization", "irilint.rules.normalization"),
    "bad-percent-encoding": ("IRI401", "percent-encoding", "irilint.rules.percent"),
    "lowercase-percent-encoding": ("IRI402", "percent-encoding", "irilint.rules.percent"),
    "percent-encoded-non-utf8": ("IRI403", "percent-encoding", "irilint.rules.percent"),
    "percent-encoded-unreserved": ("IRI404", "percent-encoding", "irilint.rules.percent"),
    "double-percent-encoding": ("IRI405", "percent-encoding", "irilint.rules.percent"),
    "percent-encoded-text": ("IRI406", "percent-encoding", "irilint.rules.percent"),
    "idn-invalid": ("IRI501", "host", "irilint.rules.host"),
    "punycode-invalid": ("IRI502", "host", "irilint.rules.host"),
    "punycode-label": ("IRI503", "host", "irilint.rules.host"),
    "idna-deviation": ("IRI504", "host", "irilint.rules.host"),
    "dns-label-syntax": ("IRI505", "host", "irilint.rules.host"),
    "uppercase-scheme": ("IRI601", "preferred-form", "irilint.rules.preferred"),
    "uppercase-host": ("IRI602", "preferred-form", "irilint.rules.preferred"),
    "dot-segments": ("IRI603", "preferred-form", "irilint.rules.preferred"),
    "default-port": ("IRI604", "preferred-form", "irilint.rules.preferred"),
    "unused-suppression": ("IRI901", "meta", "irilint.rules.meta"),
    "unknown-suppression": ("IRI902", "meta", "irilint.rules.meta"),
}

"""The rule registry.

A rule is one function decorated with :func:`rule` in its family's module.
Its docstring is its documentation (``irilint explain``, ``docs/rules.md``):
a one-line summary, then the sections ``What it does``, ``Why``,
``Example``, ``Fix safety`` and ``Reference``, each introduced by a
``## `` heading.

Codes: ``IRI`` + family digit + number.

====  ==================  =====================================
code  family              what
====  ==================  =====================================
0xx   syntax              the RFC 3987 grammar
1xx   bidi                bidi controls and per-component rules
2xx   lookalike           confusables, scripts, invisibles
3xx   normalization       NFC and compatibility characters
4xx   percent-encoding    escapes
5xx   host                IDNA and Punycode
6xx   preferred-form      RFC 3986 s6.2 normal forms
9xx   meta                suppressions
====  ==================  =====================================
"""
from __future__ import annotations

import importlib
import re
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Dict, FrozenSet, Iterable, List, Optional

from irilint.findings import Severity

if TYPE_CHECKING:  # pragma: no cover
    from irilint.rules.project_rules import ProjectSteps

FAMILIES = (
    "syntax", "bidi", "lookalike", "normalization", "percent-encoding",
    "host", "preferred-form", "meta",
)

#: The modules that hold rules, one per family (imported on first use).
RULE_MODULES = (
    "irilint.rules.syntax",
    "irilint.rules.bidi",
    "irilint.rules.lookalike",
    "irilint.rules.idn_policy",
    "irilint.rules.normalization",
    "irilint.rules.percent",
    "irilint.rules.host",
    "irilint.rules.preferred",
    "irilint.rules.meta",
)

#: When a rule runs on a reference: "always", or only when the reference
#: has one of these traits.  Pure-ASCII references without "%" or "xn--"
#: skip every rule that needs one (the fast path).
TRAITS = ("non_ascii", "percent", "punycode")


def has_punycode_trait(value: str) -> bool:
    """Whether ``value`` holds "xn--" in any case (the "punycode" trait).

    A one-character test runs at memchr speed and settles most values (a
    base64 payload has no "-"); on long values re's literal search is
    ~2.5x faster than str's for two characters."""
    return ("-" in value
            and (_search_double_hyphen(value) is not None if len(value) > 4096 else "--" in value)
            and "xn--" in value.lower())


_search_double_hyphen = re.compile("--").search

#: What a rule is about: one reference, a whole document, or the
#: ``irilint: ignore`` comments (run by the engine after it applied them).
SCOPES = ("reference", "document", "suppressions")

#: How a rule treats a template (irilint.templates: "{{ link }}",
#: "/users/{id}", a regular expression: not an IRI yet): "always" checks it
#: (the characters a reader cannot see or tell apart are there whatever
#: fills the gaps), "literal-authority" only when its scheme and authority
#: are written literally, "never" leaves it alone.
TEMPLATE_MODES = ("always", "literal-authority", "never")
#: The template mode of a rule that does not say, by family.
_FAMILY_TEMPLATE_MODES = {
    "bidi": "always", "lookalike": "always", "normalization": "always",
    "host": "literal-authority",
}

#: Tags a rule's findings carry to an editor (LSP DiagnosticTag):
#: "unnecessary" (shown faded: text that can go), "deprecated".
TAGS = ("unnecessary", "deprecated")

DOC_SECTIONS = ("What it does", "Why", "Example", "Fix safety", "Reference")

#: The sentence every reference rule with a fix ends its "Fix safety"
#: section with (line breaks aside): whatever the rule says, a fix of a
#: reference that is data is unsafe (irilint.scanners.base.DATA_CONTEXTS).
DATA_FIX_SAFETY = (
    "Where the reference is data, which a program reads as written (in code "
    "outside comments and docstrings, in a JSON, YAML or TOML value, in a Turtle "
    "term or literal), every fix is unsafe: ``--fix`` leaves it alone.")

_NAME_RE = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*\Z")
_CODE_RE = re.compile(r"IRI[0-9]{3}\Z")


@dataclass(eq=False)
class Rule:
    name: str
    code: str
    family: str
    severity: Severity
    enabled: bool
    #: "safe", "unsafe", "sometimes" (safe in some cases) or "none"
    fix: str
    check: Callable
    #: None: runs on every reference; else the traits that make it run.
    needs: Optional[FrozenSet[str]] = None
    #: "reference" rules see one reference; "document" rules see them all.
    scope: str = "reference"
    doc: str = ""
    summary: str = ""
    #: ``fix`` where the text is data (see :attr:`fix_in_data`), when the
    #: rule says it (a document rule, whose fixes edit no reference)
    data_fix: Optional[str] = None
    #: For a rule with ``needs``: a test of one non-ASCII character such
    #: that, on a reference whose only trait is "non_ascii" (no "%", no
    #: "xn--": the decoded view is the value), the rule can find something
    #: only if the test holds for one of its characters.  None: no such
    #: test.  The engine then skips the rule (irilint.rules.gates).
    gate: Optional[Callable[[str], bool]] = None
    #: How much the rule says about the characters it flags, for findings
    #: of several rules on the same characters of a reference: the engine
    #: reports the most specific (highest) and names the others in its
    #: message.  What a character is (a bidi control, an invisible, a
    #: full-width form, a delimiter look-alike) says more than a
    #: normalization, which says more than the IDNA tables, which say more
    #: than the grammar.  Ties go to the lower code.  0: the rule is about
    #: something else than characters (a component, a label's form, the
    #: Bidi Rule of a label) and its findings are never merged.
    specificity: int = 0
    #: A reference rule that finds nothing in a reference the fast path
    #: takes (irilint.rules.fastpath): the fast path stays on only while
    #: every rule in force that runs on all references says so.
    fast_path_silent: bool = False
    #: How it treats templates (:data:`TEMPLATE_MODES`).
    templates: str = "never"
    #: Tags of its findings for editors (:data:`TAGS`).
    tags: FrozenSet[str] = frozenset()
    #: A project rule's steps across documents
    #: (irilint.rules.project_rules), or None.
    project: Optional["ProjectSteps"] = None

    def __hash__(self) -> int:
        return hash(self.code)

    def __reduce__(self):
        # Pickled (for --jobs) by name, so the other side gets the one
        # registered instance, not a copy.
        return (get_rule, (self.name,))

    def __repr__(self) -> str:
        return "<Rule %s %s>" % (self.code, self.name)

    @property
    def fix_in_data(self) -> str:
        """``fix`` where the reference is data (DATA_FIX_SAFETY): a rule
        with a fix of references has only unsafe ones there.  A document
        rule's fixes edit no reference: as it says (``data_fix``), else
        as ``fix``."""
        if self.data_fix is not None:
            return self.data_fix
        if self.scope == "reference" and self.fix != "none":
            return "unsafe"
        return self.fix

    @property
    def suppressible(self) -> bool:
        """Whether an ``irilint: ignore`` comment can silence it (a rule
        about those comments runs after they are applied)."""
        return self.scope != "suppressions"

    @property
    def url_fragment(self) -> str:
        return "%s-%s" % (self.code.lower(), self.name)


_RULES: Dict[str, Rule] = {}
_loaded = False


def rule(
    *,
    name: str,
    code: str,
    family: str,
    severity: str,
    enabled: bool = True,
    fix: str = "none",
    needs: Optional[Iterable[str]] = None,
    scope: str = "reference",
    gate: Optional[Callable[[str], bool]] = None,
    data_fix: Optional[str] = None,
    specificity: int = 0,
    fast_path_silent: bool = False,
    templates: Optional[str] = None,
    tags: Iterable[str] = (),
    project: Optional["ProjectSteps"] = None,
) -> Callable[[Callable], Callable]:
    """Register the decorated function as a rule.

    A reference rule is called as ``check(ctx)`` with a
    :class:`irilint.rules.context.RefContext` and yields findings made by
    ``ctx.report``.  A document rule is called as ``check(doc)`` with a
    :class:`irilint.rules.context.DocContext`.  A suppressions rule is
    called by the engine's own means (see irilint.engine).  The other
    keywords are the attributes of :class:`Rule` of the same names;
    ``templates`` defaults by family.
    """
    if not _NAME_RE.match(name):
        raise ValueError("rule name %r is not kebab-case" % name)
    if not _CODE_RE.match(code):
        raise ValueError("rule code %r is not IRInnn" % code)
    if family not in FAMILIES:
        raise ValueError("unknown family %r" % family)
    if fix not in ("safe", "unsafe", "sometimes", "none"):
        raise ValueError("unknown fix safety %r" % fix)
    if data_fix not in (None, "safe", "unsafe", "sometimes", "none"):
        raise ValueError("unknown fix safety %r" % data_fix)
    if data_fix is not None and scope == "reference":
        raise ValueError("a reference rule's fixes of data are unsafe: no data_fix")
    if gate is not None and needs is None:
        raise ValueError("a gate applies only to a rule with needs")
    if needs is not None:
        bad = set(needs) - set(TRAITS)
        if bad:
            raise ValueError("unknown traits %r" % sorted(bad))
    if scope not in SCOPES:
        raise ValueError("unknown scope %r" % scope)
    if fast_path_silent and (scope != "reference" or needs is not None):
        raise ValueError("fast_path_silent is for reference rules that run on every reference")
    if templates is None:
        templates = _FAMILY_TEMPLATE_MODES.get(family, "never")
    if templates not in TEMPLATE_MODES:
        raise ValueError("unknown template mode %r" % templates)
    tags = frozenset(tags)
    if tags - set(TAGS):
        raise ValueError("unknown tags %r" % sorted(tags - set(TAGS)))
    if project is not None and scope != "document":
        raise ValueError("a project rule is a document rule")

    def decorate(fn: Callable) -> Callable:
        doc = _dedent_doc(fn.__doc__ or "")
        summary = doc.strip().splitlines()[0].strip() if doc.strip() else ""
        r = Rule(
            name=name, code=code, family=family, severity=Severity.parse(severity),
            enabled=enabled, fix=fix, check=fn,
            needs=None if needs is None else frozenset(needs),
            scope=scope, doc=doc, summary=summary, gate=gate, data_fix=data_fix, specificity=specificity,
            fast_path_silent=fast_path_silent, templates=templates, tags=tags, project=project,
        )
        for other in _RULES.values():
            if other.code == code and other.name != name:
                raise ValueError("code %s used by %s and %s" % (code, other.name, name))
        known = _RULES.get(name)
        if type(known) is _CataloguedRule:
            # Handed out before its module was imported: completed in
            # place, so that every holder of it has the one rule.
            if (known.code, known.family) != (code, family):
                raise ValueError("rule %s: irilint/rules/catalogue.py is out of date" % name)
            known.__dict__.update(r.__dict__)
            known.__class__ = Rule
            r = known
        _RULES[name] = r
        fn.rule = r  # type: ignore[attr-defined]
        return fn

    return decorate


def _dedent_doc(doc: str) -> str:
    lines = doc.expandtabs().splitlines()
    if not lines:
        return ""
    indents = [len(l) - len(l.lstrip()) for l in lines[1:] if l.strip()]
    cut = min(indents) if indents else 0
    return "\n".join([lines[0].strip()] + [l[cut:] for l in lines[1:]]).strip() + "\n"


def load_rules() -> None:
    global _loaded
    if _loaded:
        return
    # Threads may ask at once (the language server's lint and index
    # threads): none may see the registry before every module is in.
    with _LOAD_LOCK:
        if _loaded:
            return
        for mod in RULE_MODULES:
            importlib.import_module(mod)
        # A catalogued rule no module registered (the catalogue is out of
        # date): not a rule; asking more of it raises LookupError.
        for name in [n for n, r in _RULES.items() if type(r) is not Rule]:
            del _RULES[name]
        _loaded = True


_LOAD_LOCK = threading.RLock()

#: what a catalogued rule knows before its module is imported
_CATALOGUED_FIELDS = frozenset({"name", "code", "family", "url_fragment"})


class _CataloguedRule(Rule):
    """A rule made from its catalogue entry (irilint.rules.catalogue),
    its module not imported yet: its name, code and family are known;
    asking anything else imports the module, whose ``@rule`` completes
    this very object (then a :class:`Rule`)."""

    def __getattribute__(self, attr: str) -> Any:
        if attr not in _CATALOGUED_FIELDS and attr[:2] != "__":
            _import_module_of(object.__getattribute__(self, "name"))
        return object.__getattribute__(self, attr)


def _import_module_of(name: str) -> None:
    from irilint.rules.catalogue import CATALOGUE

    with _LOAD_LOCK:
        importlib.import_module(CATALOGUE[name][2])
    if type(_RULES.get(name)) is not Rule:
        raise LookupError("rule %s is not registered by %s: irilint/rules/catalogue.py is out of date"
                          % (name, CATALOGUE[name][2]))


def registered_rule(name: str) -> Optional[Rule]:
    """The rule named exactly ``name``, or None.  A rule the catalogue
    (irilint.rules.catalogue) names is given without importing its module
    until more than its name, code and family is asked of it: reading a
    cached result needs no rule module."""
    r = _RULES.get(name)
    if r is not None or _loaded:
        return r
    from irilint.rules.catalogue import CATALOGUE

    entry = CATALOGUE.get(name)
    if entry is None:
        r = get_rule(name)
        return r if r is not None and r.name == name else None
    with _LOAD_LOCK:
        r = _RULES.get(name)
        if r is None:
            r = _new_object(_CataloguedRule)
            r.__dict__.update(name=name, code=entry[0], family=entry[1])
            _RULES[name] = r
    return r


_new_object = object.__new__


def all_rules() -> List[Rule]:
    """Every rule, ordered by code."""
    load_rules()
    return sorted(_RULES.values(), key=lambda r: r.code)


def get_rule(key: str) -> Optional[Rule]:
    """A rule by name or code (any case)."""
    load_rules()
    k = key.strip()
    if k in _RULES:
        return _RULES[k]
    ku = k.upper()
    for r in _RULES.values():
        if r.code == ku or r.name == k.lower():
            return r
    return None


def resolve_selector(selector: str) -> List[Rule]:
    """Rules matched by a selector: ``ALL``, a family, a name, a code or a
    code prefix (``IRI1`` is every bidi rule).  Raises KeyError if none."""
    load_rules()
    s = selector.strip()
    if s.upper() == "ALL":
        return all_rules()
    if s.lower() in FAMILIES:
        return [r for r in all_rules() if r.family == s.lower()]
    r = get_rule(s)
    if r is not None:
        return [r]
    su = s.upper()
    if su.startswith("IRI") and su[3:].isdigit():
        found = [r for r in all_rules() if r.code.startswith(su)]
        if found:
            return found
    raise KeyError(selector)


def is_selector(selector: str) -> bool:
    try:
        resolve_selector(selector)
        return True
    except KeyError:
        return False


@dataclass
class Selection:
    """The rules in force and their severities, from select/ignore lists."""

    rules: List[Rule] = field(default_factory=list)
    severities: Dict[str, Severity] = field(default_factory=dict)

    def severity_of(self, r: Rule) -> Severity:
        return self.severities.get(r.name, r.severity)


def select_rules(
    select: Iterable[str] = (),
    ignore: Iterable[str] = (),
    extend_select: Iterable[str] = (),
    severity: Optional[Dict[str, str]] = None,
) -> Selection:
    """ruff's model: ``select`` replaces the default set, ``extend-select``
    adds to it, ``ignore`` removes; the most specific selector does not
    matter, ignore always wins."""
    select = list(select)
    if select:
        chosen = {r for s in select for r in resolve_selector(s)}
    else:
        chosen = {r for r in all_rules() if r.enabled}
    for s in extend_select:
        chosen.update(resolve_selector(s))
    for s in ignore:
        chosen.difference_update(resolve_selector(s))
    sev: Dict[str, Severity] = {}
    for key, level in (severity or {}).items():
        for r in resolve_selector(key):
            sev[r.name] = level if isinstance(level, Severity) else Severity.parse(level)
    return Selection(sorted(chosen, key=lambda r: r.code), sev)

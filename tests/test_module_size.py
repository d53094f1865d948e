"""No module above ~600 lines without a reason written at its top.

Every module of the package (``server/`` as ``irilint``, ``rules/`` as
``irilint.rules``) over 600 lines says in its docstring why it is one
module, with the fixed words "One module, over 600 lines" (see
server/engine.py).  The generated data modules are left out: they are
tables, written by tools/, not read as code.
"""
import ast
import importlib.util
import pkgutil

import pytest

import irilint
import irilint.rules

MAX_LINES = 600
REASON_MARKER = "One module, over 600 lines"
#: written by tools/gen_unicode_data.py, tools/gen_wordlist.py and
#: tools/gen_well_known_domains.py
GENERATED = ("irilint.unicode_data", "irilint.english_words", "irilint.well_known_domains")


def package_modules():
    names = ["irilint", "irilint.rules"]
    for package in (irilint, irilint.rules):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            names.append(info.name)
    return sorted(set(names))


MODULES = package_modules()


def source_of(module):
    with open(importlib.util.find_spec(module).origin, encoding="utf-8") as fh:
        return fh.read()


def size_problem(text):
    """Why ``text`` (a module's source) is too long, or None when it is not
    over the limit or its docstring gives a reason."""
    count = len(text.splitlines())
    if count <= MAX_LINES:
        return None
    doc = ast.get_docstring(ast.parse(text)) or ""
    if REASON_MARKER in " ".join(doc.split()):
        return None
    return "%d lines, over %d, and its docstring does not say why it is one module (%r)" % (
        count, MAX_LINES, REASON_MARKER)


@pytest.mark.parametrize("module", [m for m in MODULES if m not in GENERATED])
def test_a_long_module_says_why_it_is_one(module):
    problem = size_problem(source_of(module))
    assert problem is None, "%s: %s" % (importlib.util.find_spec(module).origin, problem)


@pytest.mark.parametrize("module", GENERATED)
def test_the_modules_left_out_are_generated(module):
    # the exemption holds for generated data only: a hand-written module
    # put in the list would say nothing of the kind
    assert "GENERATED" in ast.get_docstring(ast.parse(source_of(module)))


def test_the_walk_sees_the_packages():
    for module in ("irilint.engine", "irilint.scanners.html", "irilint.lsp.server", "irilint.rules.bidi",
                   "irilint.rules.lookalike", "irilint.rules.lookalike.scripts", "irilint.unicode_data"):
        assert module in MODULES, module


def body(lines):
    return "".join("x%d = %d\n" % (i, i) for i in range(lines))


def test_a_module_at_the_limit_passes():
    assert size_problem('"""Short."""\n' + body(MAX_LINES - 1)) is None


def test_a_long_module_without_a_reason_is_seen():
    problem = size_problem('"""Long, with no reason."""\n' + body(MAX_LINES))
    assert problem is not None and "601 lines" in problem


def test_the_reason_may_wrap_across_lines():
    text = '"""Long.\n\n(One module,\nover 600 lines: one job.)\n"""\n' + body(MAX_LINES)
    assert size_problem(text) is None


def test_the_marker_outside_the_docstring_does_not_count():
    text = '"""Long."""\n# One module, over 600 lines: in a comment only\n' + body(MAX_LINES)
    assert size_problem(text) is not None

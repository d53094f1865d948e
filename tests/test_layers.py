"""The code's rooms and their one-way arrows (README, "Layout"):

    cli / lsp (server) / report  ->  project  ->  engine  ->  scanners, rules  ->  iri, convert, data

Every module of the package is walked; each import it makes (at the top or
inside a function, where most of them are: only imports under
``TYPE_CHECKING`` are left out, they never run) must go to its own room or
a room below.  And no import circle exists among the modules at all.
"""
import ast
import importlib
import importlib.util
import pkgutil

import pytest

#: room -> height: a module imports only from rooms of its height or lower
ROOMS = {"front": 4, "project": 3, "engine": 2, "scanners-rules": 1, "data": 0}

#: modules by name, then by prefix (a package's submodules)
BY_NAME = {
    "irilint": "data",  # the version
    "irilint.__main__": "front",
    "irilint.report_args": "front",
    "irilint.project": "project",
    "irilint.project_files": "project",
    "irilint.runner": "project",
    "irilint.collisions": "project",
    "irilint.cache": "project",
    "irilint.undecodable": "project",
    "irilint.run_memo": "project",
    "irilint.discovery": "project",
    "irilint.output": "project",
    "irilint.paths": "project",
    "irilint.engine": "engine",
    "irilint.suppressions": "engine",
    "irilint.reference_memo": "engine",
    "irilint.fix_loop": "engine",
    "irilint.stream": "engine",
    "irilint.large_files": "project",
    "irilint.iri": "data",
    "irilint.anatomy": "data",
    "irilint.english_words": "data",
    "irilint.lookalike_table": "data",
    "irilint.well_known_domains": "data",
    "irilint.resolve": "data",
    "irilint.messages": "data",
    "irilint.convert": "data",
    "irilint.chars": "data",
    "irilint.config": "data",
    "irilint.declared_encoding": "data",
    "irilint.fileio": "data",
    "irilint.findings": "data",
    "irilint.idn_display": "data",
    "irilint.lines": "data",
    "irilint.templates": "data",
    "irilint.unicode_data": "data",
    "irilint.unicode_security": "data",
}
BY_PREFIX = {
    "irilint.cli": "front",
    "irilint.lsp": "front",
    "irilint.report": "front",
    "irilint.scanners": "scanners-rules",
    "irilint.rules": "scanners-rules",
}


def room_of(module):
    if module in BY_NAME:
        return BY_NAME[module]
    for prefix, room in BY_PREFIX.items():
        if module == prefix or module.startswith(prefix + "."):
            return room
    return None


def all_modules():
    import irilint.rules

    names = ["irilint", "irilint.rules"]
    # irilint.rules lives in a folder of its own (package-dir): walked too
    for package in (irilint, irilint.rules):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            names.append(info.name)
    return sorted(set(names))


MODULES = all_modules()


def _source(module):
    spec = importlib.util.find_spec(module)
    with open(spec.origin, encoding="utf-8") as fh:
        return fh.read(), spec.submodule_search_locations is not None


def imports_of(module):
    """The project's modules ``module`` imports, anywhere in its code but
    under ``if TYPE_CHECKING:``."""
    text, is_package = _source(module)
    found = set()

    class Visitor(ast.NodeVisitor):
        def visit_If(self, node):
            test = node.test
            if getattr(test, "id", None) == "TYPE_CHECKING" or getattr(test, "attr", None) == "TYPE_CHECKING":
                for child in node.orelse:
                    self.visit(child)
                return
            self.generic_visit(node)

        def visit_Import(self, node):
            found.update(alias.name for alias in node.names)

        def visit_ImportFrom(self, node):
            if node.level:
                base = module.split(".")
                if not is_package:
                    base = base[:-1]
                base = base[:len(base) - (node.level - 1)]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            for alias in node.names:
                found.add(prefix + "." + alias.name)

    Visitor().visit(ast.parse(text))
    known = set(MODULES)
    out = set()
    for name in found:
        while name and name not in known:
            name = name.rpartition(".")[0]
        if name and name != module:
            out.add(name)
    return out


GRAPH = {m: imports_of(m) for m in MODULES}


def test_every_module_has_a_room():
    assert [m for m in MODULES if room_of(m) is None] == []


def test_the_walk_sees_the_rooms():
    # the walk found the modules the arrows are about (a walk that saw
    # nothing would pass every other test here)
    for module in ("irilint.cli.check", "irilint.project", "irilint.runner", "irilint.engine",
                   "irilint.scanners.html", "irilint.rules.bidi", "irilint.iri", "irilint.lsp.diagnostics"):
        assert module in GRAPH, module
    assert "irilint.project" in GRAPH["irilint.cli.check"]
    assert "irilint.engine" in GRAPH["irilint.project"]


@pytest.mark.parametrize("module", MODULES)
def test_no_module_imports_upward(module):
    mine = ROOMS[room_of(module)]
    upward = sorted(other for other in GRAPH[module] if ROOMS[room_of(other)] > mine)
    assert upward == [], "%s (%s) imports from a room above it: %s" % (module, room_of(module), upward)


def test_no_import_circle():
    # Depth-first search for a back edge; a package importing its own
    # submodule and the submodule importing the package's __init__ (the
    # version) are edges like any other.
    state = {}
    path = []

    def visit(m):
        state[m] = "open"
        path.append(m)
        for other in sorted(GRAPH[m]):
            if state.get(other) == "open":
                circle = path[path.index(other):] + [other]
                pytest.fail("import circle: " + " -> ".join(circle))
            if other not in state:
                visit(other)
        path.pop()
        state[m] = "done"

    for m in MODULES:
        if m not in state:
            visit(m)


def test_an_upward_import_or_a_circle_would_be_seen(monkeypatch):
    # the checks above catch what they are for: a made-up upward import
    assert ROOMS[room_of("irilint.engine")] < ROOMS[room_of("irilint.cli.check")]
    monkeypatch.setitem(GRAPH, "irilint.engine", GRAPH["irilint.engine"] | {"irilint.cli.check"})
    with pytest.raises(AssertionError):
        test_no_module_imports_upward("irilint.engine")
    with pytest.raises(pytest.fail.Exception):
        test_no_import_circle()


@pytest.mark.parametrize("module", [m for m in MODULES if not m.endswith(".__main__")])
def test_each_module_imports(module):
    # at run time too: every module imports on its own (``__main__``
    # modules run the program when imported; their imports are checked above)
    importlib.import_module(module)

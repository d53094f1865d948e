"""The wheel ships every package: pyproject.toml lists each folder of the
source tree that is a package (setuptools takes only the listed ones, so a
new subpackage left out imports in an editable install and is missing from
``pip install .``)."""
import os
import sys

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def setuptools_config():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as fh:
        return tomllib.load(fh)["tool"]["setuptools"]


def packages_in_tree(package_dir):
    """Dotted names of the folders holding an ``__init__.py`` under each
    ``package-dir`` root."""
    found = set()
    for name, folder in package_dir.items():
        top = os.path.join(ROOT, folder)
        for here, dirs, files in os.walk(top):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            if "__init__.py" not in files:
                dirs[:] = []  # a data folder (templates): no package below it
                continue
            rel = os.path.relpath(here, top)
            found.add(name if rel == "." else name + "." + rel.replace(os.sep, "."))
    return found


def test_every_package_folder_is_listed():
    config = setuptools_config()
    assert packages_in_tree(config["package-dir"]) - set(config["packages"]) == set()


def test_every_listed_package_is_a_folder():
    config = setuptools_config()
    assert set(config["packages"]) - packages_in_tree(config["package-dir"]) == set()


def test_the_walk_sees_the_subpackages():
    found = packages_in_tree(setuptools_config()["package-dir"])
    assert {"irilint", "irilint.cli", "irilint.lsp", "irilint.rules", "irilint.rules.lookalike"} <= found

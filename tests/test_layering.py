"""The house's import rules that import-linter cannot state: no cycles at all, and no module imports the root.

The contracts in pyproject.toml ([tool.importlinter], run by ``lint-imports`` in CI) cover the one-way
data flow, who may import the model stack, and sibling cycles. A submodule importing the package root
(``from . import __version__``) is a cycle through ``e1prep/__init__.py`` that they do not see.
"""

from __future__ import annotations

import grimp
import pytest


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("e1prep")


def test_no_module_imports_the_package_root(graph: grimp.ImportGraph) -> None:
    assert graph.find_modules_that_directly_import("e1prep") == set()


def test_the_import_graph_has_no_cycles(graph: grimp.ImportGraph) -> None:
    cycles = [
        (importer, imported)
        for importer in sorted(graph.modules)
        for imported in sorted(graph.find_modules_directly_imported_by(importer))
        if graph.find_shortest_chain(importer=imported, imported=importer)
    ]
    assert cycles == []


def test_every_module_stands_in_a_layer_of_the_contract(graph: grimp.ImportGraph) -> None:
    """A module outside every layer would escape the one-way flow: the layers name the whole package."""
    import tomllib
    from pathlib import Path

    config = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    (layers,) = [c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers"]
    named = {part.strip() for layer in layers["layers"] for part in layer.split("|")}
    children = {m.split(".")[1] for m in graph.modules if m.count(".") >= 1}
    # __main__ only calls the cli; data/ is a folder of TOML files, a package only for importlib.resources
    assert children - {"__main__", "data"} == named

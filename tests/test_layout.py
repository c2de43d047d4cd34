"""The import rules of the layout (docs/DEVELOPING.md, "Import rules"), read from the source.

Every module's imports are read with ``ast`` (nothing is executed), including imports inside
functions, and grouped by *unit*: a top-level package (``claims``, ``sources``, ``reports``,
``templates``, ``audit``, the command line and demo ``cli``), the registry ``engine.experiments`` and
each engine subpackage (``engine.runs``, ``engine.retrieval``, ``engine.encoder``,
``engine.budget``, ``engine.r03``, ``engine.ledger``). The test fails on

* a circle between units;
* an engine subsystem importing another subsystem outside the stated exceptions;
* anything under ``engine/``, ``claims/``, ``sources/``, ``reports/`` or ``audit/`` (outside the
  command line itself) importing ``cli``; the engine importing the audit side at all.

On the main branch before the layout change this failed with the circle
``claims.verify → audit.cli → audit.cli_report → reports.build → claims.verify``: ``verify --rerun``
re-ran experiments through the typer ``app``, while the CLI imports the report, which imports
verify. ``test_the_old_circle_is_found`` keeps that graph as a case, so the checker itself cannot
silently stop finding circles.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "cli", "books", "audit", "claims", "sources", "reports", "templates")
SUBSYSTEMS = ("engine.retrieval", "engine.encoder", "engine.budget", "engine.r03", "engine.ledger",
              "engine.notebook", "engine.stats")

# Real dependencies between subsystems, stated in each subpackage's docstring: importer -> allowed modules.
SUBSYSTEM_EXCEPTIONS = {
    "engine.budget": {"engine.retrieval.trec", "engine.encoder.encode"},
    "engine.r03": {"engine.retrieval.metrics", "engine.encoder.encode", "engine.stats.bootstrap"},
    "engine.retrieval": {"engine.stats.bootstrap", "engine.stats.randomisation", "engine.stats.ttest",
                         "engine.stats.corrections"},
    "engine.ledger": {"engine.retrieval.text"},
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def unit_of(module: str) -> str:
    """The unit a module belongs to (see the module docstring)."""
    parts = module.split(".")
    if parts[0] == "engine" and len(parts) > 1:
        return ".".join(parts[:2])
    return parts[0]  # "cli" holds the command line and the demo orchestrator: the top of the house


def project_imports(path: Path) -> set[str]:
    """Every project module a file imports, at any depth of the file (absolute names)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # "from engine.r03 import coverage" imports the submodule engine.r03.coverage
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        found.update(name for name in names if name.split(".")[0] in PACKAGES)
    return found


def import_graph() -> dict[str, set[str]]:
    graph = {}
    for package in PACKAGES:
        for path in sorted((REPO / package).rglob("*.py")):
            if "fixtures" in path.parts or "examples" in path.parts:
                continue
            graph[module_name(path)] = project_imports(path)
    return graph


def existing(graph: dict[str, set[str]], names: set[str]) -> set[str]:
    """Imported names that are modules or packages of the project (drops imported functions)."""
    return {name for name in names if name in graph}


def unit_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    units: dict[str, set[str]] = {}
    for module, imports in graph.items():
        here = unit_of(module)
        units.setdefault(here, set())
        units[here].update(unit_of(name) for name in existing(graph, imports) if unit_of(name) != here)
    return units


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of the directed graph as a closed path, or None (depth-first search)."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                cycle = visit(nxt)
                if cycle:
                    return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


GRAPH = import_graph()


def test_the_walk_sees_the_whole_project():
    assert len(GRAPH) > 60
    assert "engine.experiments" in GRAPH and "cli.root" in GRAPH
    assert "engine.retrieval.bm25" in GRAPH["engine.retrieval.sandbox"]


def test_the_old_circle_is_found():
    old = {"claims.verify": {"audit.cli"}, "audit.cli": {"audit.cli_report"},
           "audit.cli_report": {"reports.build"}, "reports.build": {"claims.verify"}}
    assert find_cycle(old) == ["audit.cli", "audit.cli_report", "reports.build", "claims.verify", "audit.cli"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_circle_between_units():
    assert find_cycle(unit_graph(GRAPH)) is None


def test_no_module_circle_outside_the_command_line():
    # cli's root imports its command modules, and they import cli.common: a package
    # importing its own parts is not a circle of the design, so the command line is left out.
    modules = {m: {i for i in existing(GRAPH, imps) if i != m and not (i == "cli" or i.startswith("cli."))}
               for m, imps in GRAPH.items() if not (m == "cli" or m.startswith("cli."))}
    assert find_cycle(modules) is None


# The house, top to bottom: every import arrow between top-level units points down a floor.
# The reader (audit: the document model, packs, fingerprints) sits below everything that reads
# chapters; the command line and the demo sit on top and nothing imports them.
FLOORS = {"cli": 5, "books": 4, "reports": 3, "claims": 2, "sources": 2, "templates": 2, "audit": 1, "engine": 0}


def floor_of(unit: str) -> int:
    return FLOORS[unit.split(".")[0]]


def test_every_arrow_between_packages_points_down():
    upward = [f"{here} imports {there}" for here, theirs in unit_graph(GRAPH).items() for there in theirs
              if here.split(".")[0] != there.split(".")[0] and floor_of(there) >= floor_of(here)]
    assert upward == []


def test_the_floor_check_finds_an_upward_arrow():
    graph = {"audit.document": {"reports.render"}, "reports.render": set()}
    assert [f"{a} -> {b}" for a, bs in unit_graph(graph).items() for b in bs if floor_of(b) >= floor_of(a)] \
        == ["audit -> reports"]


@pytest.mark.parametrize("subsystem", SUBSYSTEMS)
def test_subsystems_import_only_the_shared_machinery_and_stated_exceptions(subsystem):
    allowed = SUBSYSTEM_EXCEPTIONS.get(subsystem, set())
    offending = []
    for module, imports in GRAPH.items():
        if unit_of(module) != subsystem:
            continue
        for name in existing(GRAPH, imports):
            unit = unit_of(name)
            if unit in (subsystem, "engine.runs"):
                continue
            if unit in SUBSYSTEMS and name in allowed:
                continue
            offending.append(f"{module} imports {name}")
    assert offending == []


def test_shared_machinery_imports_no_subsystem():
    offending = [f"{m} imports {n}" for m, imps in GRAPH.items() if unit_of(m) == "engine.runs"
                 for n in existing(GRAPH, imps) if unit_of(n) != "engine.runs"]
    assert offending == []


def test_nothing_below_the_command_line_imports_it():
    offending = [f"{m} imports {n}" for m, imps in GRAPH.items() if unit_of(m) != "cli"
                 for n in imps if n == "cli" or n.startswith("cli.")]
    assert offending == []


def test_the_engine_never_imports_the_audit_side():
    offending = [f"{m} imports {n}" for m, imps in GRAPH.items() if m.startswith("engine")
                 for n in imps if n.split(".")[0] in ("audit", "claims", "sources", "reports", "templates")]
    assert offending == []


def test_every_subpackage_states_what_it_owns_and_may_import():
    for package in ("engine", "engine.runs", *SUBSYSTEMS, "cli"):
        init = REPO / package.replace(".", "/") / "__init__.py"
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        assert doc, f"{init} has no docstring"
        if package in SUBSYSTEMS or package == "engine.runs":
            assert "May import" in doc, f"{init} does not state what it may import"
    for subsystem, allowed in SUBSYSTEM_EXCEPTIONS.items():
        doc = ast.get_docstring(ast.parse((REPO / subsystem.replace(".", "/") / "__init__.py").read_text()))
        for name in allowed:
            assert f"``{name}``" in doc or f"``{name.rsplit('.', 1)[0]}``" in doc, (subsystem, name)


def test_every_typer_command_matches_the_experiment_registry():
    """The CLI's options of each experiment command are exactly the registry's parameter schema."""
    from typer.main import get_command

    from cli import app
    from engine.experiments import EXPERIMENTS

    root = get_command(app)
    # runtime-only options: how or where a run is shown, logged or executed, never a parameter of the experiment
    runtime_only = {"--log", "--progress", "--help", "--format", "--workers", "--scheduler"}
    for command, exp in EXPERIMENTS.items():
        node = root
        for word in command.split():
            node = node.commands[word]  # type: ignore[attr-defined]
        options = set()
        for param in node.params:
            if param.param_type_name == "option":
                options.update(o for o in param.opts if o.startswith("--") and o not in runtime_only)
            elif param.param_type_name == "argument":  # a positional is the registry's --<name>
                options.add("--" + param.name.replace("_", "-"))
        assert options == set(exp.options()), command

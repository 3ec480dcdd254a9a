"""netlab's modules import each other without a circle (issue 16): every ``import`` and ``from ...
import`` of a netlab module, at top level or inside a function, is an edge; the graph has no cycle."""

import ast
import pathlib

import netlab

ROOT = pathlib.Path(netlab.__file__).parent


def module_name(path: pathlib.Path) -> str:
    parts = ("netlab",) + path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    modules = {module_name(p): p for p in ROOT.rglob("*.py")}
    graph = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        deps = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                deps.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(up + ([base] if base else []))
                for a in node.names:     # "from netlab import validate" imports the module netlab.validate
                    deps.add(f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base)
        graph[name] = {d for d in deps if d in modules and d != name}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    colour = dict.fromkeys(graph, 0)    # 0 new, 1 on the current path, 2 done
    path: list[str] = []

    def visit(v):
        colour[v] = 1
        path.append(v)
        for w in sorted(graph[v]):
            if colour[w] == 1:
                return path[path.index(w):] + [w]
            if colour[w] == 0 and (found := visit(w)):
                return found
        path.pop()
        colour[v] = 2
        return None

    for v in sorted(graph):
        if colour[v] == 0 and (found := visit(v)):
            return found
    return None


def test_the_checker_finds_a_circle():
    assert find_cycle({"x": {"y"}, "y": {"z"}, "z": {"x"}}) == ["x", "y", "z", "x"]
    assert find_cycle({"x": {"y"}, "y": set()}) is None


def test_netlab_has_no_import_cycle():
    graph = import_graph()
    assert "netlab.rdma.core" in graph["netlab.rdma.qp"]      # the graph sees real edges
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph))

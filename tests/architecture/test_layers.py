"""The architecture, kept honest (issue 8; ``docs/architecture.md``).

* Imports go downward only: every import statement of the package (function-level
  ones included) is checked against :data:`exactdp.layers.LAYERS`.
* No import cycle among the package's modules (function-level imports included, ``if
  TYPE_CHECKING:`` blocks left out), no private name (``_x``) imported from another module,
  and FLINT and gmpy2 imported only by ``exactdp/_backend.py`` (issue 22).
* The library never imports the proof checks (``exactdp_proofs``), except the
  ``exactdp proofs`` command; nothing installs or imports a package named ``proofs``.
* ``exactdp --help`` and argument errors load no numeric module (FLINT, gmpy2, mpmath,
  NumPy, SymPy).
* The command line's literal choices and limits equal the library's.
* ``exactdp.__all__`` resolves and covers every name the README and docs import.
* Proof links: every statement a library function names (``@implements``) has a
  settled check in ``proofs/``; every library function a check names exists.
"""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

import exactdp
from exactdp.layers import LAYERS, layer_of

ROOT = Path(__file__).resolve().parents[2]
PKG = ROOT / "exactdp"

NUMERIC = ("flint", "gmpy2", "mpmath", "numpy", "sympy")


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module) of every import in the file, relative ones resolved."""
    mod = _module_name(path)
    pkg = mod if path.name == "__init__.py" else mod.rsplit(".", 1)[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            out.append((node.lineno, target))
            # "from . import x" / "from .pkg import sub": the names may be modules
            for a in node.names:
                cand = f"{target}.{a.name}"
                if importlib.util.find_spec(cand.split(".")[0]) and _is_module(cand):
                    out.append((node.lineno, cand))
    return out


def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


FILES = sorted(PKG.rglob("*.py"))


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_imports_go_downward(path):
    src = _module_name(path)
    if src == "exactdp":
        return  # the lazy facade names everything (as strings)
    mine = layer_of(src)
    bad = []
    for line, target in _imports(path):
        top = target.split(".")[0]
        if top in ("proofs",):
            bad.append(f"line {line}: imports {target} (install name is exactdp_proofs)")
        if top == "exactdp_proofs" and not src.startswith("exactdp.cli"):
            bad.append(f"line {line}: the library imports the proof checks ({target})")
        if top != "exactdp" or target == "exactdp":
            continue
        theirs = layer_of(target)
        if theirs > mine:
            bad.append(f"line {line}: {src} ({LAYERS[mine][0]}) imports {target} ({LAYERS[theirs][0]})")
    assert not bad, "\n".join(bad)


# --------------------------------------------------------------------------
# cycles, private names, the one backend door (issue 22)

#: Known offenders, each ``(module, what it imports)``: none (keep it so; an entry must still offend).
ALLOWED_BACKEND_IMPORTS: set = set()
#: Private names imported across modules: ``(importing module, module imported from, name)``; none.
ALLOWED_PRIVATE_IMPORTS: set = set()
#: Import cycles, each a sorted tuple of modules; none.
ALLOWED_CYCLES: set = set()
BACKENDS = ("flint", "gmpy2")


def _runtime_nodes(tree: ast.AST):
    """Every node of ``tree`` except the bodies of ``if TYPE_CHECKING:`` (never run)."""
    stack = [tree]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.If) and getattr(n.test, "id", getattr(n.test, "attr", None)) == "TYPE_CHECKING":
            stack.extend(n.orelse)
            continue
        yield n
        stack.extend(ast.iter_child_nodes(n))


def _import_facts(path: Path) -> tuple[set, list, list]:
    """``(modules of exactdp imported, private names imported as (line, module, name),
    backends imported as (line, module))`` by the file, at run time."""
    mod = _module_name(path)
    pkg = mod if path.name == "__init__.py" else mod.rsplit(".", 1)[0]
    edges: set = set()
    private: list = []
    backend: list = []
    for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] in BACKENDS:
                    backend.append((node.lineno, a.name))
                if a.name.startswith("exactdp."):
                    edges.add(a.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] in BACKENDS:
                backend.append((node.lineno, target))
            if not (target == "exactdp" or target.startswith("exactdp.")):
                continue
            for a in node.names:
                if _is_module(f"{target}.{a.name}"):
                    edges.add(f"{target}.{a.name}")  # a submodule, not its package's __init__
                    continue
                edges.add(target)
                if a.name.startswith("_") and not a.name.startswith("__"):
                    private.append((node.lineno, target, a.name))
    edges.discard("exactdp")  # the lazy facade (PEP 562) imports nothing at import time
    return edges, private, backend


FACTS = {_module_name(p): _import_facts(p) for p in FILES}


def _cycles(graph: dict) -> list[tuple[str, ...]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict = {}
    low: dict = {}
    stack: list = []
    on: set = set()
    out = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in graph:
                    continue
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(tuple(sorted(comp)))
    return out


def test_no_import_cycle():
    cycles = _cycles({m: f[0] for m, f in FACTS.items()})
    bad = [c for c in cycles if c not in ALLOWED_CYCLES]
    assert not bad, "import cycles:\n" + "\n".join(" -> ".join(c) for c in bad)
    assert not [c for c in cycles if any(m.startswith("exactdp.engines") for m in c)]


def test_the_cycle_finder_finds_cycles():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [("a", "b", "c")]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_private_name_is_imported_across_modules():
    bad = [f"{m} line {line}: imports {name} from {src}" for m, f in FACTS.items() for line, src, name in f[1]
           if src != m and (m, src, name) not in ALLOWED_PRIVATE_IMPORTS]
    assert not bad, "\n".join(bad)


def test_flint_and_gmpy2_are_imported_only_by_the_backend():
    bad = [f"{m} line {line}: imports {what}" for m, f in FACTS.items() for line, what in f[2]
           if m != "exactdp._backend" and (m, what.split(".")[0]) not in ALLOWED_BACKEND_IMPORTS]
    assert not bad, "\n".join(bad)
    text = (ROOT / "exactdp" / "_backend.py").read_text(encoding="utf-8")
    assert '"flint"' in text and '"gmpy2"' in text, "the backend module loads FLINT and gmpy2"


def test_the_allow_lists_hold_no_engine_and_no_stale_entry():
    # every allowed offender still offends (an entry that no longer does is removed), and none is an engine
    backend = {(m, what.split(".")[0]) for m, f in FACTS.items() for _, what in f[2]}
    private = {(m, src, name) for m, f in FACTS.items() for _, src, name in f[1]}
    cycles = set(_cycles({m: f[0] for m, f in FACTS.items()}))
    assert ALLOWED_BACKEND_IMPORTS <= backend, ALLOWED_BACKEND_IMPORTS - backend
    assert ALLOWED_PRIVATE_IMPORTS <= private, ALLOWED_PRIVATE_IMPORTS - private
    assert ALLOWED_CYCLES <= cycles, ALLOWED_CYCLES - cycles
    for entry in [*ALLOWED_BACKEND_IMPORTS, *ALLOWED_PRIVATE_IMPORTS, *(m for c in ALLOWED_CYCLES for m in c)]:
        assert "exactdp.engines" not in str(entry)


def test_every_module_has_a_layer():
    for p in FILES:
        layer_of(_module_name(p))  # KeyError names a module missing from the table


def test_no_package_named_proofs_is_installed_or_imported():
    code = ("import sys, exactdp, exactdp_proofs, exactdp.cli; import importlib.util as u; "
            "print(exactdp_proofs.__name__, 'proofs' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd="/", check=True).stdout
    assert out.split() == ["exactdp_proofs", "False"]
    # from outside the repository, no 'proofs' package is importable at all
    r = subprocess.run([sys.executable, "-c", "import proofs"], capture_output=True, text=True, cwd="/")
    assert r.returncode != 0 and "ModuleNotFoundError" in r.stderr


@pytest.mark.parametrize("argv", [["--help"], ["delta", "--help"], ["delta", "--eps", "-1", "--eps-g", "0", "-k", "x"],
                                  ["delta", "--eps", "-1", "--eps-g", "0"], ["delta", "--eps", "0.1", "--eps-g", "nan"],
                                  ["epsilon", "--exp-eps", "2", "--delta", "1.5", "--delta-g", "0.1"],
                                  ["epsilon", "--eps", "1", "--delta-g", "1"],
                                  ["certify", "--eps", "0.1", "--claim-eps", "-1", "--claim-delta", "0"],
                                  ["certify", "--eps", "0.1", "-k", "10000000000000", "--claim-eps", "1", "--claim-delta", "0"],
                                  ["approx", "--eps", "0.1", "--delta-g", "1e-6", "--eta", "0"],
                                  ["certify", "--help"], ["nosuchcommand"]])
def test_help_and_argument_errors_load_no_numeric_module(argv):
    code = (
        "import sys\n"
        "from exactdp.cli import main\n"
        "try:\n    main(%r)\nexcept SystemExit:\n    pass\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & set(%r)))\n" % (argv, NUMERIC)
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd="/")
    assert r.stdout.strip().splitlines()[-1] == "[]", r.stdout + r.stderr


def test_cli_literals_equal_the_library():
    from exactdp.approx import FORMS
    from exactdp.cli import approx as cli_approx
    from exactdp.cli import common, reduce
    from exactdp.engines import ENGINES, METHODS
    from exactdp.engines.api import MAX_DIGITS
    from exactdp.events import MAX_MECHANISMS
    from exactdp.numbers import MAX_NUMBER_DIGITS, MAXPREC
    from exactdp.reductions.chain import MAX_PRODUCT_BITS
    from exactdp.reductions.problems import BRUTE_FORCE_MAX_K
    from exactdp.reductions.steps import DEFAULT_MAX_PREC

    assert common.ENGINE_CHOICES == ENGINES and common.METHOD_CHOICES == METHODS
    assert common.MAX_DIGITS == MAX_DIGITS and common.MAX_CLI_MECHANISMS == MAX_MECHANISMS
    assert common.MAX_NUMBER_DIGITS == MAX_NUMBER_DIGITS
    assert cli_approx.FORMS == FORMS
    assert (reduce.BRUTE_FORCE_MAX_K, reduce.DEFAULT_MAX_PREC, reduce.MAX_PRODUCT_BITS, reduce.MAXPREC) == (
        BRUTE_FORCE_MAX_K, DEFAULT_MAX_PREC, MAX_PRODUCT_BITS, MAXPREC)


def test_exported_names_are_not_shadowed_by_submodules():
    # exactdp.certify is both a module and the exported function: the function must win,
    # even after every module of the package has been imported
    code = ("import types, exactdp; from exactdp.links import links; links(); "
            "print([n for n in exactdp.__all__ if isinstance(getattr(exactdp, n), types.ModuleType)])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd="/", check=True).stdout
    assert out.strip() == "[]"


def test_public_api_resolves_and_covers_the_docs():
    for name in exactdp.__all__:
        assert getattr(exactdp, name) is not None, name
    used = set()
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for m in re.finditer(r"from exactdp import ([^\n]+)", doc.read_text(encoding="utf-8")):
            used |= {n.strip(" ()") for n in m.group(1).split(",") if n.strip(" ()")}
    missing = sorted(n for n in used if n not in exactdp.__all__)
    assert not missing, f"imported from exactdp in the docs but not in exactdp.__all__: {missing}"


# --------------------------------------------------------------------------
# proof links


def _entries():
    from exactdp_proofs._framework import entries
    from exactdp_proofs._papers import PAPERS

    out = {}
    for paper in PAPERS:
        for id, text, fn in entries(paper):
            out[(paper, id)] = (text, fn)
    return out


def test_every_linked_statement_has_a_settled_check():
    from exactdp.links import links, parse_link
    from exactdp_proofs._framework import run_entry

    ents = _entries()
    linked = links()
    assert linked, "no library function names a statement"
    problems = []
    for stmt, fns in linked.items():
        paper, sid = parse_link(stmt)
        if (paper, sid) not in ents:
            problems.append(f"{stmt} (implemented by {fns}) has no check in proofs/{paper}/")
            continue
        text, fn = ents[(paper, sid)]
        c = run_entry(paper, sid, text, fn, full=False)
        if not c.settled:
            problems.append(f"{stmt}: its check is {c.status} (not settled)")
    assert not problems, "\n".join(problems)


def _resolve(name: str):
    """The object a dotted name names (a module's function or class, or a class's method), or None."""
    parts = name.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for attr in parts[cut:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return None
        return obj
    return None


def test_every_function_a_check_names_exists():
    bad = []
    for (paper, id), (_, fn) in _entries().items():
        for name in getattr(fn, "library", ()):
            obj = _resolve(name)
            if obj is None:
                bad.append(f"{paper} {id}: names {name}, which does not exist")
                continue
            assert callable(obj), name
    assert not bad, "\n".join(bad)


def test_a_link_to_a_missing_statement_is_caught():
    from exactdp.links import parse_link

    assert parse_link("Murtagh-Vadhan Lemma 5.1") == ("murtagh_vadhan", "Lemma 5.1")
    with pytest.raises(ValueError):
        parse_link("Nobody Theorem 9.9")
    ents = _entries()
    assert ("murtagh_vadhan", "Lemma 5.1") in ents and ("murtagh_vadhan", "Lemma 9.99") not in ents

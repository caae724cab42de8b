"""Finite interactive mechanisms as exact game trees (Vadhan-Wang Definitions 2-4, Vadhan-Zhang Definition 1.4).

An interactive mechanism with finite communication, run on one of a fixed pair of
inputs, is seen by any adversary only through the conditional distribution of its
next answer given the history (the queries and answers so far). A finite game tree
holds exactly that:

* a :class:`Node` is a point of the interaction where the adversary speaks: it
  lists the queries it may send (labels); a node with no query is the end of the
  interaction (``halt``); a mechanism that speaks first has one query, ``"*"``;
* each query has the mechanism's answers, each a :class:`Branch` with one exact
  rational probability per input (``probs[0]`` under ``x``, ``probs[1]`` under
  ``x'``; a simulator of Vadhan-Wang Theorem 5.2 has inputs ``0, 1, Iam0, Iam1``)
  and the node that follows (``None``: halt).

Under each input the answers of one query sum to 1 exactly. Subtrees may be shared
(a DAG, as built by :func:`exactdp.interactive.concurrent`): every algorithm here
memoises on nodes, and a history-dependent object (an adversary) is keyed by the
history, not the node.

The JSON form (versioned, exact rational strings) reads like the tree::

    {"exactdp_interactive": 1, "type": "interactive_mechanism", "inputs": ["x", "x'"],
     "root": {"*": {"0": {"p": ["3/4", "1/4"], "next": {"0": {...}, "1": {...}}},
                    "1": {"p": ["1/4", "3/4"]}}}}

A node is an object mapping each query to an object mapping each answer to
``{"p": [...], "next": node}`` (``next`` omitted or ``{}``: halt).
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from typing import Iterator, Mapping, Optional, Sequence

from ..errors import CostTooHigh, InvalidArgument
from ..numbers import fraction_str, parse_rational

__all__ = [
    "Branch",
    "Node",
    "InteractiveMechanism",
    "JSON_VERSION",
    "MAX_NODES",
    "MAX_DEPTH",
    "randomized_response",
    "noninteractive",
    "two_round_bits",
    "random_two_round",
]

#: Version of the JSON form.
JSON_VERSION = 1
#: Largest tree (nodes of the expanded tree) read from JSON or built by a constructor.
MAX_NODES = 1_000_000
#: Deepest tree accepted (rounds of interaction; keeps every recursion far from Python's limit).
MAX_DEPTH = 200
#: Longest label accepted (queries and answers).
MAX_LABEL = 200


class Branch:
    """One answer of the mechanism to one query: its probability under each input and what follows.

    Guarantee: exact (probabilities are Fractions in [0, 1]). Immutable.
    """

    __slots__ = ("probs", "next")

    def __init__(self, probs: Sequence[object], next: Optional["Node"] = None):
        ps = tuple(p if type(p) is Fraction else _prob(p, "p") for p in probs)
        object.__setattr__(self, "probs", ps)
        object.__setattr__(self, "next", next)

    def __setattr__(self, name, value):
        raise AttributeError("Branch is immutable")

    def __repr__(self) -> str:
        return f"Branch({[fraction_str(p) for p in self.probs]}, {'halt' if self.next is None else '...'})"


class Node:
    """A point where the adversary speaks: ``queries`` maps each query label to its answers
    (a mapping answer label -> :class:`Branch`), in order. No query: the interaction ends.

    Guarantee: exact. Immutable; nodes compare by identity (a tree may share subtrees).
    """

    __slots__ = ("queries",)

    def __init__(self, queries: Mapping[str, Mapping[str, Branch]] = ()):
        q = tuple((str(k), tuple((str(a), b) for a, b in dict(v).items())) for k, v in dict(queries).items())
        object.__setattr__(self, "queries", q)

    def __setattr__(self, name, value):
        raise AttributeError("Node is immutable")

    @property
    def is_leaf(self) -> bool:
        return not self.queries

    def answers(self, query: str) -> tuple[tuple[str, Branch], ...]:
        """The answers to ``query`` (pairs ``(label, Branch)``). Raises: KeyError for an unknown query."""
        for k, v in self.queries:
            if k == query:
                return v
        raise KeyError(query)

    def __repr__(self) -> str:
        return "Node(halt)" if self.is_leaf else f"Node(queries={[k for k, _ in self.queries]})"



def _check_node(node: Node, n_inputs: int, where: str) -> None:
    for q, answers in node.queries:
        if not answers:
            raise InvalidArgument(f"{where}[{q!r}]", "a query with at least one answer", "no answers")
        for i in range(n_inputs):
            s = sum((b.probs[i] for _, b in answers), Fraction(0))
            if s != 1:
                raise InvalidArgument(f"{where}[{q!r}]", f"answers whose probabilities under input {i} sum to 1",
                                      fraction_str(s))


class InteractiveMechanism:
    """A finite interactive mechanism on a fixed pair of inputs, as an exact game tree (module docstring).

    Guarantee: exact (validated: probabilities in [0, 1] summing to 1 per query and input;
    labels unique; at most :data:`MAX_NODES` nodes and :data:`MAX_DEPTH` rounds).

    Parameters:
        root: the first :class:`Node`.
        inputs: names of the inputs (default ``("x", "x'")``; two or more).
        name: an optional description.

    Raises:
        InvalidArgument: a malformed tree (named by its path), probabilities that do not
            sum to 1, too deep or too large.

    Examples:
        >>> m = randomized_response(exp_eps=3)
        >>> m.size()
        {'nodes': 1, 'edges': 2, 'depth': 1, 'histories': 2}
        >>> InteractiveMechanism.loads(m.dumps()).dumps() == m.dumps()
        True
    """

    __slots__ = ("root", "inputs", "name", "_size")

    def __init__(self, root: Node, *, inputs: Sequence[str] = ("x", "x'"), name: str = ""):
        if not isinstance(root, Node):
            raise InvalidArgument("root", "a Node", root)
        inputs = tuple(str(s) for s in inputs)
        if len(inputs) < 2 or len(set(inputs)) != len(inputs):
            raise InvalidArgument("inputs", "two or more distinct input names", list(inputs))
        object.__setattr__(self, "root", root)
        object.__setattr__(self, "inputs", inputs)
        object.__setattr__(self, "name", str(name))
        object.__setattr__(self, "_size", None)
        self._validate()

    def __setattr__(self, name, value):
        raise AttributeError("InteractiveMechanism is immutable")

    def _validate(self) -> None:
        n = len(self.inputs)
        seen: dict[int, int] = {}  # node id -> depth checked
        stack = [(self.root, 0, "root")]
        count = 0
        while stack:
            node, depth, where = stack.pop()
            if depth > MAX_DEPTH:
                raise InvalidArgument("tree", f"at most {MAX_DEPTH} rounds", f"depth {depth} at {where}")
            if id(node) in seen and seen[id(node)] >= depth:
                continue
            seen[id(node)] = depth
            count += 1
            if count > MAX_NODES:
                raise CostTooHigh("tree", f"more than {MAX_NODES} nodes", estimate=count, limit=MAX_NODES,
                                  alternative="a smaller mechanism")
            for q, answers in node.queries:
                for a, b in answers:
                    if len(b.probs) != n:
                        raise InvalidArgument(f"{where}[{q!r}][{a!r}].p", f"a list of {n} probabilities (one per input)",
                                              len(b.probs))
                    for p in b.probs:
                        if not (isinstance(p, Fraction) and 0 <= p <= 1):
                            raise InvalidArgument(f"{where}[{q!r}][{a!r}].p", "probabilities in [0, 1]", p)
                    if b.next is not None:
                        stack.append((b.next, depth + 1, f"{where}[{q!r}][{a!r}]"))
            _check_node(node, n, where)

    # -- structure -------------------------------------------------------
    def size(self) -> dict:
        """``nodes`` (distinct, excluding halts), ``edges`` (distinct answer branches), ``depth``
        (rounds), ``histories`` (answer branches of the expanded tree: the LP's variables per input).

        Guarantee: exact. Raises: nothing.
        """
        if self._size is None:
            nodes: dict[int, tuple[int, int]] = {}  # id -> (depth below, histories below)

            def visit(node: Node) -> tuple[int, int]:
                got = nodes.get(id(node))
                if got is not None:
                    return got
                d, h = 0, 0
                for _, answers in node.queries:
                    for _, b in answers:
                        h += 1
                        if b.next is not None:
                            dd, hh = visit(b.next)
                            d, h = max(d, dd), h + hh
                out = (d + (1 if node.queries else 0), h)
                nodes[id(node)] = out
                return out

            depth, hist = visit(self.root)
            edges = sum(len(a) for n in self.nodes() for _, a in n.queries)
            object.__setattr__(self, "_size", {"nodes": len(nodes), "edges": edges, "depth": depth, "histories": hist})
        return dict(self._size)

    def nodes(self) -> list[Node]:
        """Every distinct non-halting node, root first (depth-first). Guarantee: exact. Raises: nothing."""
        out, seen, stack = [], set(), [self.root]
        while stack:
            n = stack.pop()
            if id(n) in seen:
                continue
            seen.add(id(n))
            out.append(n)
            for _, answers in reversed(n.queries):
                for _, b in reversed(answers):
                    if b.next is not None:
                        stack.append(b.next)
        return out

    def pair(self, i: int = 0, j: int = 1) -> "InteractiveMechanism":
        """The mechanism on inputs ``(inputs[i], inputs[j])`` only (e.g. ``pair(1, 0)`` swaps x and x').

        Guarantee: exact. Raises: InvalidArgument for a bad index.
        """
        n = len(self.inputs)
        for v, nm in ((i, "i"), (j, "j")):
            if not (isinstance(v, int) and 0 <= v < n):
                raise InvalidArgument(nm, f"an input index in [0, {n - 1}]", v)
        memo: dict[int, Node] = {}

        def rebuild(node: Node) -> Node:
            got = memo.get(id(node))
            if got is None:
                got = Node({q: {a: Branch((b.probs[i], b.probs[j]), None if b.next is None else rebuild(b.next))
                                for a, b in answers} for q, answers in node.queries})
                memo[id(node)] = got
            return got

        return InteractiveMechanism(rebuild(self.root), inputs=(self.inputs[i], self.inputs[j]), name=self.name)

    def histories(self) -> Iterator[tuple[tuple[tuple[str, str], ...], tuple[Fraction, ...], Optional[Node]]]:
        """Every history of the expanded tree ending with an answer: ``(((q1, a1), ...), probs, next)``
        where ``probs[i]`` is the probability of the answers given the queries under input ``i``
        (the product along the path), depth-first.

        Guarantee: exact. Raises: nothing (the caller bounds the cost by :meth:`size`).
        """
        stack: list = [(self.root, (), tuple(Fraction(1) for _ in self.inputs))]
        while stack:
            node, hist, pr = stack.pop()
            for q, answers in reversed(node.queries):
                for a, b in reversed(answers):
                    h = hist + ((q, a),)
                    p = tuple(x * y for x, y in zip(pr, b.probs))
                    yield h, p, b.next
                    if b.next is not None:
                        stack.append((b.next, h, p))

    # -- JSON --------------------------------------------------------------
    def to_json(self) -> dict:
        """The versioned JSON object (exact rational strings; shared subtrees are written out).

        Guarantee: exact (``InteractiveMechanism.from_json(m.to_json())`` describes the same mechanism).
        Raises: CostTooHigh when the expanded tree exceeds :data:`MAX_NODES` histories.
        """
        h = self.size()["histories"]
        if h > MAX_NODES:
            raise CostTooHigh("tree", f"the written-out tree would have {h} answer branches (limit {MAX_NODES})",
                              estimate=h, limit=MAX_NODES, alternative="keep the mechanism in memory")

        def node_json(node: Node) -> dict:
            return {q: {a: ({"p": [fraction_str(p) for p in b.probs]} |
                            ({"next": node_json(b.next)} if b.next is not None and not b.next.is_leaf else {}))
                        for a, b in answers} for q, answers in node.queries}

        d = {"exactdp_interactive": JSON_VERSION, "type": "interactive_mechanism", "inputs": list(self.inputs)}
        if self.name:
            d["name"] = self.name
        d["root"] = node_json(self.root)
        return d

    @classmethod
    def from_json(cls, obj: object) -> "InteractiveMechanism":
        """A mechanism from its JSON object (see the module docstring). Guarantee: exact.

        Raises:
            InvalidArgument: malformed object (named by its path: ``root['*']['0'].p``), unknown
                version, probabilities that are not rationals in [0, 1] or do not sum to 1.
            CostTooHigh: more than :data:`MAX_NODES` nodes.
        """
        if not isinstance(obj, dict):
            raise InvalidArgument("mechanism", "a JSON object", type(obj).__name__)
        v = obj.get("exactdp_interactive")
        if v != JSON_VERSION:
            raise InvalidArgument("exactdp_interactive", f"version {JSON_VERSION}", v)
        if obj.get("type", "interactive_mechanism") != "interactive_mechanism":
            raise InvalidArgument("type", '"interactive_mechanism"', obj.get("type"))
        inputs = obj.get("inputs", ["x", "x'"])
        if not (isinstance(inputs, list) and len(inputs) >= 2 and all(isinstance(s, str) for s in inputs)):
            raise InvalidArgument("inputs", "a list of two or more input names", inputs)
        n = len(inputs)
        count = [0]

        def parse_node(o: object, where: str, depth: int) -> Node:
            if depth > MAX_DEPTH:
                raise InvalidArgument("tree", f"at most {MAX_DEPTH} rounds", f"deeper at {where}")
            if not isinstance(o, dict):
                raise InvalidArgument(where, "an object mapping queries to answers", type(o).__name__)
            count[0] += 1
            if count[0] > MAX_NODES:
                raise CostTooHigh("tree", f"more than {MAX_NODES} nodes", estimate=count[0], limit=MAX_NODES,
                                  alternative="a smaller mechanism")
            queries = {}
            for q, answers in o.items():
                _label(q, f"{where} query")
                w = f"{where}[{q!r}]"
                if not isinstance(answers, dict) or not answers:
                    raise InvalidArgument(w, "an object mapping answers to {p, next}", answers)
                ans = {}
                for a, br in answers.items():
                    _label(a, f"{w} answer")
                    wa = f"{w}[{a!r}]"
                    if not isinstance(br, dict) or "p" not in br or not set(br) <= {"p", "next"}:
                        raise InvalidArgument(wa, 'an object {"p": [...], "next": {...}}', br)
                    ps = br["p"]
                    if not isinstance(ps, list) or len(ps) != n:
                        raise InvalidArgument(f"{wa}.p", f"a list of {n} probabilities (one per input)", ps)
                    probs = []
                    for i, p in enumerate(ps):
                        if isinstance(p, bool) or not isinstance(p, (str, int, float)):
                            raise InvalidArgument(f"{wa}.p[{i}]", "a rational number in [0, 1]", p)
                        x = parse_rational(p, f"{wa}.p[{i}]", expected="a rational number in [0, 1]")
                        if not 0 <= x <= 1:
                            raise InvalidArgument(f"{wa}.p[{i}]", "a rational number in [0, 1]", p)
                        probs.append(x)
                    nxt = br.get("next")
                    child = None if nxt is None or nxt == {} else parse_node(nxt, wa, depth + 1)
                    ans[a] = Branch(probs, child)
                queries[q] = ans
            return Node(queries)

        root = parse_node(obj.get("root", {}), "root", 0)
        return cls(root, inputs=inputs, name=str(obj.get("name", "")))

    def dumps(self) -> str:
        """:meth:`to_json` as a string. Guarantee: exact. Raises: as :meth:`to_json`."""
        return json.dumps(self.to_json())

    @classmethod
    def loads(cls, text: str) -> "InteractiveMechanism":
        """A mechanism from a JSON string. Guarantee: exact.

        Raises:
            InvalidArgument: malformed JSON (with its position) or object.
        """
        try:
            obj = json.loads(text)
        except (ValueError, TypeError, RecursionError) as e:
            raise InvalidArgument("mechanism", "valid JSON", str(e)) from None
        return cls.from_json(obj)

    def __repr__(self) -> str:
        s = self.size()
        nm = f"{self.name!r}, " if self.name else ""
        return f"InteractiveMechanism({nm}{s['nodes']} nodes, depth {s['depth']}, inputs {list(self.inputs)})"


def _label(x: object, where: str) -> None:
    if not isinstance(x, str) or len(x) > MAX_LABEL:
        raise InvalidArgument(where, f"a string of at most {MAX_LABEL} characters", x)


def _prob(x: object, name: str) -> Fraction:
    p = parse_rational(x, name, expected="a rational number in [0, 1]")
    if not 0 <= p <= 1:
        raise InvalidArgument(name, "a rational number in [0, 1]", x)
    return p


# -- constructors ---------------------------------------------------------------


def noninteractive(p: Sequence[object], q: Sequence[object], labels: Optional[Sequence[str]] = None,
                   name: str = "") -> InteractiveMechanism:
    """The non-interactive mechanism with output distributions ``p`` (under x) and ``q`` (under x'),
    as a one-round tree (one query ``"*"``).

    Guarantee: exact. Raises: InvalidArgument (lengths, probabilities, sums).

    Examples:
        >>> noninteractive(["1/2", "1/2"], ["1/3", "2/3"]).size()["edges"]
        2
    """
    if len(p) != len(q) or not p:
        raise InvalidArgument("q", f"a list as long as p ({len(p)})", len(q))
    labels = [str(i) for i in range(len(p))] if labels is None else [str(s) for s in labels]
    if len(labels) != len(p) or len(set(labels)) != len(labels):
        raise InvalidArgument("labels", f"{len(p)} distinct labels", labels)
    ans = {lab: Branch((_prob(a, f"p[{i}]"), _prob(b, f"q[{i}]"))) for i, (lab, a, b) in enumerate(zip(labels, p, q))}
    return InteractiveMechanism(Node({"*": ans}), name=name)


def randomized_response(exp_eps: object, delta: object = 0) -> InteractiveMechanism:
    """RR_(eps, delta) of Vadhan-Wang Definition 10 (Kairouz-Oh-Viswanath) on the pair (x, x') = (0, 1),
    as a one-round tree with answers ``0, 1`` (and ``Iam0, Iam1`` when delta > 0).

    Guarantee: exact (``exp_eps = e^eps`` a rational >= 1).

    Raises:
        InvalidArgument: exp_eps < 1, delta outside [0, 1).

    Examples:
        >>> rr = randomized_response(3, "1/10")
        >>> [(a, [str(p) for p in b.probs]) for a, b in rr.root.answers("*")]
        [('Iam0', ['1/10', '0']), ('0', ['27/40', '9/40']), ('1', ['9/40', '27/40']), ('Iam1', ['0', '1/10'])]
    """
    from ..numbers import parse_delta, parse_exp_eps

    t = parse_exp_eps(exp_eps)
    d = parse_delta(delta)
    hi, lo = (1 - d) * t / (1 + t), (1 - d) / (1 + t)
    ans: dict = {}
    if d:
        ans["Iam0"] = Branch((d, Fraction(0)))
    ans["0"] = Branch((hi, lo))
    ans["1"] = Branch((lo, hi))
    if d:
        ans["Iam1"] = Branch((Fraction(0), d))
    return InteractiveMechanism(Node({"*": ans}), name=f"RR(e^eps={fraction_str(t)}, delta={fraction_str(d)})")


def two_round_bits(params: Sequence[object], name: str = "") -> InteractiveMechanism:
    """The 2-round mechanism with 1-bit messages of Vadhan-Wang Section 6 (their Figure 1).

    ``params = (p0, p00, p01, p10, p11, p0', p00', p01', p10', p11')``: under input x,
    the first answer a0 is 0 with probability ``p0``; then on the query bit ``q1 = j``
    the second answer a1 is 0 with probability ``p_{a0 j}``; primed: under x'.
    (The paper writes ``p_ij = Pr[M(0, j) = (i, 0)]``; read here as the conditional
    probability of ``a1 = 0`` given ``a0 = i`` and the query ``j``, so that the ten
    parameters range freely over [0, 1].)

    Guarantee: exact. Raises: InvalidArgument (ten probabilities in [0, 1]).

    Examples:
        >>> m = two_round_bits(["1/2"] * 10)
        >>> m.size()
        {'nodes': 3, 'edges': 10, 'depth': 2, 'histories': 10}
    """
    if len(params) != 10:
        raise InvalidArgument("params", "ten probabilities (p0, p00, p01, p10, p11 and their primes)", len(params))
    names = ["p0", "p00", "p01", "p10", "p11", "p0'", "p00'", "p01'", "p10'", "p11'"]
    v = [_prob(x, n) for x, n in zip(params, names)]
    first: dict = {}
    for a0 in (0, 1):
        pa = (v[0], v[5]) if a0 == 0 else (1 - v[0], 1 - v[5])
        second = {}
        for j in (0, 1):
            c, cp = v[1 + 2 * a0 + j], v[6 + 2 * a0 + j]
            second[str(j)] = {"0": Branch((c, cp)), "1": Branch((1 - c, 1 - cp))}
        first[str(a0)] = Branch(pa, Node(second))
    return InteractiveMechanism(Node({"*": first}), name=name)


def random_two_round(rng: random.Random, denominator: int = 100) -> tuple[list[Fraction], InteractiveMechanism]:
    """A random mechanism of :func:`two_round_bits`: ten parameters drawn independently and
    uniformly from ``{1/D, 2/D, ..., (D-1)/D}`` (``D = denominator``), from ``rng``.

    Guarantee: exact (the parameters are the Fractions returned). Raises: InvalidArgument (D < 2).
    """
    if not (isinstance(denominator, int) and denominator >= 2):
        raise InvalidArgument("denominator", "an integer >= 2", denominator)
    params = [Fraction(rng.randint(1, denominator - 1), denominator) for _ in range(10)]
    return params, two_round_bits(params)

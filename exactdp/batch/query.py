"""One query as a JSON object: what ``exactdp batch`` reads, one per line, and what a corpus vector asks.

A query names a composition and one question about it::

    {"id": "q1", "composition": {"exactdp_event": 1, "type": "composition", "parts": [...]}, "delta_g": "1e-6"}
    {"id": "q2", "mechanisms": {"eps": ["0.1", "0.2"], "delta": "0", "k": 50}, "eps_g": "1"}
    {"mechanisms": {"exp_eps": ["2"], "k": 2}, "claim_exp_eps": "2", "claim_delta": "2/9"}

* the composition: ``"composition"`` (the events' versioned JSON form,
  :meth:`exactdp.Composition.to_json`) or ``"mechanisms"`` (the arguments of
  :func:`exactdp.mechanisms`: ``eps`` or ``exp_eps``, ``delta``, ``k``);
* the question: ``"delta_g"`` (OptComp: the least eps_g), ``"eps_g"`` or
  ``"exp_eps_g"`` (the least delta_g), or ``"claim_eps"`` / ``"claim_exp_eps"``
  with ``"claim_delta"`` (:func:`exactdp.certify`); ``"query"`` may name it
  (``"epsilon"``, ``"delta"``, ``"certify"``) and must then agree;
* optional ``"engine"``, ``"method"``, ``"digits"`` (as in the library), ``"id"``
  (any JSON scalar, echoed in the answer).

Numbers are exact rational strings or JSON numbers (a JSON number is read as the
decimal it is written as: ``0.1`` is 1/10, as in the command line).
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Optional

from ..errors import CostTooHigh, ExactDPError, InvalidArgument
from ..events import Composition, mechanisms
from ..numbers import parse_choice, parse_delta, parse_eps, parse_exp_eps, parse_int
from ..numbers.parse import parse_json

__all__ = ["Query", "parse_query", "answer", "error_record", "KINDS", "MAX_LINE_CHARS"]

KINDS = ("epsilon", "delta", "certify")

#: Longest query line read (characters); a longer line gets an error record.
MAX_LINE_CHARS = 1_000_000

_KNOWN = {"id", "query", "composition", "mechanisms", "delta_g", "eps_g", "exp_eps_g", "claim_eps", "claim_exp_eps",
          "claim_delta", "engine", "method", "digits"}


@dataclass(frozen=True)
class Query:
    """A validated query (see the module docstring). Guarantee: exact (fields parsed exactly)."""

    composition: Composition
    kind: str
    value: dict  # the question's parameters, as exact Fractions: {"delta_g": F} or {"eps_g": F} ...
    _: KW_ONLY
    engine: str = "auto"
    method: str = "auto"
    digits: int = 30
    id: object = None

    def to_json(self) -> dict:
        """The query as a JSON object (composition in the events' form, numbers as exact strings).

        Guarantee: exact (``parse_query(q.to_json()) == q``). Raises: nothing.
        """
        from ..numbers import fraction_str

        d: dict = {}
        if self.id is not None:
            d["id"] = self.id
        d["query"] = self.kind
        d["composition"] = self.composition.to_json()
        for k, v in self.value.items():
            d[k] = fraction_str(v)
        d.update(engine=self.engine, method=self.method, digits=self.digits)
        return d


def parse_query(obj: object) -> Query:
    """A :class:`Query` from its JSON object (or a JSON text).

    Guarantee: exact.

    Raises:
        InvalidArgument: malformed JSON, an unknown field, no or two questions, bad numbers
            (named by field: ``delta_g``, ``mechanisms.eps[2]``, ``composition.parts[0].count``).
        CostTooHigh: a ``mechanisms`` object of more than ``MAX_MECHANISMS`` mechanisms.

    Examples:
        >>> q = parse_query('{"mechanisms": {"eps": ["0.1"], "k": 10}, "delta_g": "1e-6"}')
        >>> q.kind, q.composition.k, q.value
        ('epsilon', 10, {'delta_g': Fraction(1, 1000000)})
    """
    if isinstance(obj, (str, bytes)):
        if len(obj) > MAX_LINE_CHARS:
            raise InvalidArgument("line", f"at most {MAX_LINE_CHARS} characters", f"{len(obj)} characters")
        obj = parse_json(obj, "line", parse_float=Decimal)
    if not isinstance(obj, dict):
        raise InvalidArgument("query", "a JSON object", type(obj).__name__)
    unknown = sorted(set(obj) - _KNOWN)
    if unknown:
        raise InvalidArgument("query", "an object with the fields " + ", ".join(sorted(_KNOWN)), f"unknown {unknown}")
    qid = obj.get("id")
    if qid is not None and (not isinstance(qid, (str, int)) or isinstance(qid, bool)):
        raise InvalidArgument("id", "a string or an integer", qid)
    if ("composition" in obj) == ("mechanisms" in obj):
        raise InvalidArgument("composition / mechanisms", "given, exactly one of the two", None)
    if "composition" in obj:
        comp = Composition.from_json(obj["composition"])
    else:
        m = obj["mechanisms"]
        if not isinstance(m, dict) or set(m) - {"eps", "exp_eps", "delta", "k"}:
            raise InvalidArgument("mechanisms", 'an object with "eps" or "exp_eps", and optional "delta", "k"', m)
        try:
            comp = mechanisms(eps=m.get("eps"), exp_eps=m.get("exp_eps"), delta=m.get("delta", 0), k=m.get("k", 1))
        except InvalidArgument as e:
            raise e.renamed("mechanisms." + e.parameter) from None
    has = {k for k in ("delta_g", "eps_g", "exp_eps_g", "claim_eps", "claim_exp_eps") if k in obj}
    value: dict = {}
    if has == {"delta_g"}:
        kind = "epsilon"
        value["delta_g"] = parse_delta(obj["delta_g"], "delta_g")
    elif has == {"eps_g"}:
        kind = "delta"
        value["eps_g"] = parse_eps(obj["eps_g"], "eps_g")
    elif has == {"exp_eps_g"}:
        kind = "delta"
        value["exp_eps_g"] = parse_exp_eps(obj["exp_eps_g"], "exp_eps_g")
    elif has in ({"claim_eps"}, {"claim_exp_eps"}):
        kind = "certify"
        if "claim_eps" in obj:
            value["claim_eps"] = parse_eps(obj["claim_eps"], "claim_eps")
        else:
            value["claim_exp_eps"] = parse_exp_eps(obj["claim_exp_eps"], "claim_exp_eps")
        value["claim_delta"] = parse_delta(obj.get("claim_delta", 0), "claim_delta")
    else:
        raise InvalidArgument("query", "exactly one question: delta_g, eps_g, exp_eps_g, or claim_eps / claim_exp_eps "
                              "with claim_delta", sorted(has) if has else "none")
    if "claim_delta" in obj and kind != "certify":
        raise InvalidArgument("claim_delta", "given only with claim_eps or claim_exp_eps", obj["claim_delta"])
    if "query" in obj:
        parse_choice(obj["query"], "query", KINDS)
        if obj["query"] != kind:
            raise InvalidArgument("query", f"'{kind}' for the fields given", obj["query"])
    from ..engines import ENGINES, METHODS
    from ..engines.api import MAX_DIGITS

    engine = parse_choice(obj.get("engine", "auto"), "engine", ENGINES)
    method = parse_choice(obj.get("method", "auto"), "method", METHODS)
    digits = parse_int(obj.get("digits", 30), "digits", lo=1, hi=MAX_DIGITS)
    if kind == "certify" and engine != "auto":
        raise InvalidArgument("engine", "'auto' for a certify query (the decision picks its engine)", engine)
    return Query(comp, kind, value, engine=engine, method=method, digits=digits, id=qid)


def answer(q: Query) -> dict:
    """The answer to ``q``: ``{"query": kind, "result": ...}`` with the result's JSON form (as
    ``exactdp delta|epsilon|certify --json`` prints it).

    Guarantee: as the engine (exact, or an enclosure; certify: an exact decision).

    Raises:
        ExactDPError: as the library (InvalidArgument, CostTooHigh, PrecisionError, Undecided).
    """
    from ..certify import certify
    from ..engines import composed_delta, optcomp

    if q.kind == "epsilon":
        r = optcomp(q.composition, q.value["delta_g"], engine=q.engine, method=q.method, digits=q.digits)
        res = r.to_dict(q.digits)
    elif q.kind == "delta":
        r = composed_delta(q.composition, q.value.get("eps_g"), exp_eps_g=q.value.get("exp_eps_g"), engine=q.engine,
                           method=q.method, digits=q.digits)
        res = r.to_dict(q.digits)
    else:
        c = certify(q.composition, q.value.get("claim_eps"), q.value["claim_delta"], claim_exp_eps=q.value.get("claim_exp_eps"),
                    method=q.method, digits=min(q.digits, 960))
        res = c.to_dict(q.digits)
    return {"query": q.kind, "result": res}


def error_record(e: BaseException) -> dict:
    """The JSON form of an error: ``{"type", "message"}`` and, for the error family, its fields.

    Guarantee: exact. Raises: nothing.
    """
    d: dict = {"type": type(e).__name__, "message": str(e)}
    if isinstance(e, InvalidArgument):
        d["parameter"] = e.parameter
    if isinstance(e, CostTooHigh):
        d["estimate"] = _jsonable(e.estimate)
        d["limit"] = _jsonable(e.limit)
        d["alternative"] = e.alternative
    return d


def _jsonable(x: object) -> object:
    if x is None or isinstance(x, (str, int, float, bool)):
        return x
    if isinstance(x, Fraction):
        return str(x)
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    return str(x)


def answer_line(text: str) -> dict:
    """Parse and answer one line; an error (of the error family, or a numeric failure) becomes an
    ``{"error": ...}`` record instead of propagating.

    Guarantee: as :func:`answer`. Raises: nothing for a bad line (programming errors propagate).
    """
    qid: Optional[object] = None
    try:
        obj = parse_json(text, "line", parse_float=Decimal) if len(text) <= MAX_LINE_CHARS else text
        if isinstance(obj, dict) and isinstance(obj.get("id"), (str, int)) and not isinstance(obj.get("id"), bool):
            qid = obj["id"]
        q = parse_query(obj)
        out = answer(q)
    except ValueError as e:  # JSON errors and InvalidArgument (a ValueError)
        if not isinstance(e, InvalidArgument):
            e = InvalidArgument("line", "a JSON object", str(e))
        out = {"error": error_record(e)}
    except (ExactDPError, ArithmeticError, RecursionError, MemoryError) as e:
        out = {"error": error_record(e)}
    if qid is not None:
        out = {"id": qid, **out}
    return out

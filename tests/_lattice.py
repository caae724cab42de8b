"""Helpers the lattice kernels' tests share: compositions on the lattice of powers of 11/10, and a
kernel's memory estimate set against the peak a child process measures (one copy instead of one
per kernel's test file)."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

from exactdp import mechanisms

U = Fraction(11, 10)


def lattice_case(spec, delta=0):
    """``spec``: [(a, n)]: n mechanisms with e^eps = (11/10)^a (and delta); returns the composition
    and the lattice degree ``A = sum a n``."""
    exp_eps = []
    for a, n in spec:
        exp_eps += [U**a] * n
    return mechanisms(exp_eps=exp_eps, delta=delta), sum(a * n for a, n in spec)


_PEAK_CHILD = r"""
import json, sys
def hwm():
    for line in open('/proc/self/status'):
        if line.startswith('VmHWM'):
            return int(line.split()[1]) * 1024
from exactdp import mechanisms, optcomp
from exactdp.engines.base import Prepared
from exactdp.engines.costs import EVALS_OPTCOMP
from exactdp.numbers import digits_to_bits
job = json.load(sys.stdin)
ms = mechanisms(eps=job["eps"])
prep = Prepared(ms, job["method"])
b, e = prep.struct.estimate("arb", digits_to_bits(30) + 32)
if job["warm"]:  # the kernel's modules loaded before the baseline
    optcomp(mechanisms(eps=job["warm"]), "1e-5", method=job["method"])
base = hwm()
r = optcomp(ms, "1e-5", method=job["method"])
print(json.dumps({"method": r.method, "peak": hwm() - base, "estimate": b.then(e, EVALS_OPTCOMP).bytes}))
"""


def optcomp_peak(method: str, eps: list, warm: list = ()) -> dict:
    """In a fresh process: the OptComp (delta_g 1e-5, 30 digits) of mechanisms with ``eps`` by
    ``method``, its peak resident memory above the baseline (``VmHWM``, Linux) and the kernel's
    memory estimate; ``warm``: eps of a composition run first. Returns ``{method, peak, estimate}``."""
    job = json.dumps({"method": method, "eps": [str(e) for e in eps], "warm": [str(e) for e in warm]})
    p = subprocess.run([sys.executable, "-c", _PEAK_CHILD], input=job, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    return json.loads(p.stdout.strip().splitlines()[-1])

"""Mechanism strings: ``gaussian(mu=1)``, ``laplace(eps=1)^4``, ``rr(eps=2, k=3)``,
``sgm(sigma=1, p=0.01, steps=1000)``, ``shuffle(eps0=1, n=1000)``, ``pp()``, ``bnp()``.

Grammar::

    mechanism := NAME "(" [ KEY "=" NUMBER { "," KEY "=" NUMBER } ] ")" [ "^" INTEGER ]

Every mechanism accepts ``steps=`` (self-composition); ``^T`` multiplies it. The registry
:data:`MECHANISMS` has one line per mechanism: its parameters with their checks, the
constructor of its trade-off function, and whether that function is exact or a certified lower
bound of the mechanism's (Delta computed on a lower bound is a lower bound in the first slot and
an upper bound in the second: Delta(f || g) grows with f and falls with g).

Composition: Gaussian exactly (G_mu^T = G_{mu sqrt(T)}, Dong, Roth, Su 2022, Cor. 3.3);
randomized response exactly (the T-fold product pmfs, grouped by the likelihood ratio, by
repeated convolution, T <= 5000); Laplace^T through :class:`dptheory.pld.PLD` with pessimistic
discretisation of a piecewise-linear lower bound of the Laplace curve (a lower bound);
the subsampled Gaussian through ``dptheory.subsampled.SubsampledGaussian(sigma, p, steps)``
and the shuffle model through ``dptheory.shuffle.fdp.shuffle_tradeoff`` (T = 1) or
``dptheory.shuffle.rounds.rounds_pld`` (T > 1): certified lower bounds.
"""

from __future__ import annotations

import dataclasses
import math
import re
from typing import Callable

import numpy as np

from .. import tradeoff, validate
from ..validate import DomainError


def _pos(name, v):
    return validate.positive(name, v)


def _nonneg(name, v):
    return validate.nonnegative(name, v)


def _prob(name, v):
    return validate.probability(name, v, open_low=True)


def _int2(name, v):
    return validate.integer(name, v, low=2)


# ------------------------------------------------------------------------------ constructors
def _gaussian(p, steps):
    return tradeoff.Gaussian(p["mu"] * math.sqrt(steps))


def rr_composed_pmfs(eps: float, k: int, steps: int):
    """Output pmfs of T-fold k-ary randomized response on inputs (x, x'), grouped by
    d = #(output = x') - #(output = x), which determines the likelihood ratio e^{eps d}: per step
    d moves by -1 w.p. e^eps/z, +1 w.p. 1/z, 0 w.p. (k-2)/z under P, mirrored under Q."""
    steps = validate.integer("steps", steps, low=1, high=5000)
    z = math.exp(eps) + k - 1
    step = np.array([math.exp(eps) / z, (k - 2) / z, 1.0 / z])  # d = -1, 0, +1
    out = np.array([1.0])
    base, t = step, steps
    while t:
        if t & 1:
            out = np.convolve(out, base)
        t >>= 1
        if t:
            base = np.convolve(base, base)
    out = out / math.fsum(out.tolist())
    return out, out[::-1].copy()


def _rr(p, steps):
    k = int(p["k"])
    if steps == 1:
        from ..mechanisms import RandomizedResponse

        return RandomizedResponse(p["eps"], k).tradeoff()
    return tradeoff.from_pmfs(*rr_composed_pmfs(p["eps"], k, steps))


def laplace_lower_bound(eps: float, points: int = 2000) -> tradeoff.PiecewiseLinear:
    """A piecewise-linear lower bound of the Laplace trade-off function: the upper envelope of
    its tangents at ``points`` geometric points of the hyperbolic piece e^{-eps}/(4 alpha) on
    [e^{-eps}/2, 1/2] (the tangents at the ends are the two linear pieces); the knots are the
    tangents' crossings (2ab/(a+b), 2c/(a+b)), c = e^{-eps}/4, lowered by 1e-15 (their rounding)."""
    e = validate.positive("eps", eps)
    a = np.geomspace(0.5 * math.exp(-e), 0.5, points)
    c = 0.25 * math.exp(-e)
    xs = 2 * a[:-1] * a[1:] / (a[:-1] + a[1:])
    ys = 2 * c / (a[:-1] + a[1:]) - 1e-15
    ka = np.concatenate([[0.0], xs, [1.0]])
    kb = np.concatenate([[1.0], np.maximum(ys, 0.0), [0.0]])
    return tradeoff.from_knots(ka, kb, tol=1e-15)


def _laplace(p, steps):
    if steps == 1:
        return tradeoff.Laplace(p["eps"])
    from ..pld import PLD  # contract with helper "pld"

    lb = laplace_lower_bound(p["eps"])
    return PLD.from_pmfs(lb.p_mass, lb.q_mass, pessimistic=True).self_compose(steps).tradeoff()


def _sgm(p, steps):
    from ..subsampled import SubsampledGaussian  # contract with helper "pld"

    return SubsampledGaussian(p["sigma"], p["p"], steps).tradeoff()


def _shuffle(p, steps):
    n = int(p["n"])
    if steps == 1:
        from ..shuffle.fdp import shuffle_tradeoff  # contract with helper "shuffle-fdp"

        return shuffle_tradeoff(p["eps0"], n)
    from ..shuffle.rounds import rounds_pld  # contract with helper "pld"

    return rounds_pld(p["eps0"], n, steps).tradeoff()


def _pp(p, steps):
    from .extremal import perfectly_private

    return perfectly_private()


def _bnp(p, steps):
    from .extremal import blatantly_non_private

    return blatantly_non_private()


def _n(name, v):
    return validate.integer(name, v, low=2)


@dataclasses.dataclass(frozen=True)
class Family:
    """One registered mechanism: parameters (name -> (check, default or None)), the trade-off
    constructor (params, steps) -> TradeOff, and whether that curve is exact at (params, steps)."""

    name: str
    params: dict
    build: Callable
    exact: Callable[[dict, int], bool]
    description: str


#: the registry: one line per mechanism
MECHANISMS = {f.name: f for f in (
    Family("gaussian", {"mu": (_nonneg, None)}, _gaussian, lambda p, t: True, "Gaussian mechanism, mu = sensitivity/sigma"),
    Family("laplace", {"eps": (_pos, None)}, _laplace, lambda p, t: t == 1, "Laplace mechanism, eps = sensitivity/scale"),
    Family("rr", {"eps": (_nonneg, None), "k": (_int2, 2)}, _rr, lambda p, t: True, "k-ary randomized response, eps-LDP"),
    Family("sgm", {"sigma": (_pos, None), "p": (_prob, None)}, _sgm, lambda p, t: False, "Poisson-subsampled Gaussian (DP-SGD)"),
    Family("shuffle", {"eps0": (_pos, None), "n": (_n, None)}, _shuffle, lambda p, t: False, "shuffled eps0-LDP randomizer"),
    Family("pp", {}, _pp, lambda p, t: True, "perfectly private mechanism M_PP (f = 1 - alpha)"),
    Family("bnp", {}, _bnp, lambda p, t: True, "blatantly non-private mechanism M_BNP (f = 0)"),
)}

GRAMMAR = 'NAME "(" [KEY=NUMBER {, KEY=NUMBER}] ")" ["^" T]   (every mechanism also takes steps=T)'


def known() -> str:
    """The registered mechanisms with their parameters, for error messages and --help."""
    rows = []
    for f in MECHANISMS.values():
        args = ", ".join(k + ("=..." if d is None else f"={d:g}") for k, (_, d) in f.params.items())
        rows.append(f"{f.name}({args})")
    return "; ".join(rows)


def _fail(text: str, why: str) -> DomainError:
    return DomainError(f"mechanism = {text!r} is invalid: {why}. Grammar: {GRAMMAR}. Known mechanisms: {known()}")


_TOKEN = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*\((.*)\)\s*(?:\^\s*([^\s]+))?\s*$")
_ARG = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*([^\s=]+)\s*$")


@dataclasses.dataclass(frozen=True)
class Mechanism:
    """A parsed mechanism: ``family``, checked ``params``, total ``steps``; :meth:`tradeoff` builds
    its trade-off function (cached), ``exact`` says whether it is exact or a lower bound."""

    family: str
    params: dict
    steps: int
    text: str

    @property
    def name(self) -> str:
        args = ", ".join(f"{k}={_show(v)}" for k, v in self.params.items())
        return f"{self.family}({args})" + (f"^{self.steps}" if self.steps != 1 else "")

    @property
    def exact(self) -> bool:
        return bool(MECHANISMS[self.family].exact(self.params, self.steps))

    @property
    def kind(self) -> str:
        """"exact" or "lower" (a certified lower bound of the trade-off function)."""
        return "exact" if self.exact else "lower"

    def tradeoff(self) -> tradeoff.TradeOff:
        cache = self.__dict__.setdefault("_cache", {})
        if "f" not in cache:
            cache["f"] = MECHANISMS[self.family].build(self.params, self.steps)
        return cache["f"]


def _show(v) -> str:
    return str(int(v)) if float(v).is_integer() else repr(float(v))


def parse_mechanism(text: str) -> Mechanism:
    """Parse a mechanism string (see the module text); :class:`DomainError` listing the grammar and
    the known mechanisms on malformed input or unknown names/parameters."""
    if not isinstance(text, str):
        raise _fail(str(text), "must be a string")
    m = _TOKEN.match(text)
    if not m:
        raise _fail(text, "not of the form name(key=value, ...)[^T]")
    fam, body, power = m.group(1).lower(), m.group(2), m.group(3)
    if fam not in MECHANISMS:
        raise _fail(text, f"unknown mechanism {fam!r}")
    spec = MECHANISMS[fam]
    given: dict = {}
    if body.strip():
        for part in body.split(","):
            am = _ARG.match(part)
            if not am:
                raise _fail(text, f"argument {part.strip()!r} is not key=number")
            key, raw = am.group(1), am.group(2)
            if key in given:
                raise _fail(text, f"parameter {key!r} given twice")
            try:
                given[key] = float(raw)
            except ValueError:
                raise _fail(text, f"{key} = {raw!r} is not a number") from None
    steps = 1
    if "steps" in given:
        steps = validate.integer("steps", given.pop("steps"), low=1)
    if power is not None:
        try:
            steps *= validate.integer("T", float(power), low=1)
        except (ValueError, DomainError):
            raise _fail(text, f"exponent ^{power} must be a positive integer") from None
    unknown = set(given) - set(spec.params)
    if unknown:
        raise _fail(text, f"unknown parameter(s) {sorted(unknown)} for {fam}; it takes {list(spec.params) + ['steps']}")
    params = {}
    for key, (check, default) in spec.params.items():
        if key not in given and default is None:
            raise _fail(text, f"missing parameter {key!r}")
        params[key] = check(key, given.get(key, default))
    return Mechanism(fam, params, steps, text)

"""Mechanism strings: ``gaussian(mu=1)``, ``laplace(eps=1)^4``, ``rr(eps=2, k=3)``,
``sgm(sigma=1, p=0.01, steps=1000)``, ``shuffle(eps0=1, n=1000)``, ``pp()``, ``bnp()``.

Grammar::

    mechanism := NAME "(" [ KEY "=" NUMBER { "," KEY "=" NUMBER } ] ")" [ "^" INTEGER ]

Every mechanism accepts ``steps=`` (self-composition); ``^T`` multiplies it. Mechanisms computed
through a privacy loss distribution (``sgm``, composed ``laplace``, composed ``shuffle``) accept
``grid=``, the PLD's discretisation interval (default 1e-4, dp_accounting's default, coarsened
automatically when the composed loss would need more than about 2^20 grid points): a finer grid
narrows the certified interval of Delta. The registry :data:`MECHANISMS` has one line per
mechanism: its parameters with their checks and the constructor of what is certified about its
trade-off function (:class:`~dptheory.comparison.curves.CertifiedCurves`: the exact curve, or a
lower and/or an upper bound of it).

Composition and bounds:

* Gaussian exactly (G_mu^T = G_{mu sqrt(T)}, Dong, Roth, Su 2022, Corollary 3.3);
* randomized response exactly (the T-fold product pmfs, grouped by the likelihood ratio, by
  repeated convolution, T <= 5000);
* Laplace^T: a lower bound (a piecewise-linear curve below the Laplace curve, pessimistic PLD,
  composed) and an upper bound (chords of the Laplace curve, optimistic PLD, composed): a
  curve above f is the trade-off function of a post-processing of the mechanism's pair, and
  composition preserves the order;
* the subsampled Gaussian (``dptheory.subsampled.SubsampledGaussian(sigma, p, steps)``, the
  add/remove symmetrisation min(f, f^-1)** of the composed directions): pessimistic PLDs for
  the lower bound, optimistic PLDs for the upper bound (p = 1: the Gaussian mechanism, exact);
* ``sgm_sym``: the subsampled Gaussian symmetrised per step, C_p(G_{1/sigma}) (Dong, Roth, Su
  2022; more pessimistic than the add/remove symmetrisation of the composition: C(f) <= f and
  C(f) <= f^-1 per step), the symmetric per-step curve Theorem 3 needs
  (:func:`dptheory.subsampled.symmetrised_step_pld`: pessimistic and optimistic PLDs);
* the shuffle model (``dptheory.shuffle.fdp.shuffle_tradeoff`` for T = 1,
  ``dptheory.shuffle.rounds.rounds_pld`` for T > 1): a certified lower bound only (no upper
  bound of the worst case over eps0-LDP randomizers is computed).
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


#: the default PLD interval, and the number of grid points the composed loss may take before the
#: interval is coarsened (when no ``grid=`` is given)
DEFAULT_GRID = 1e-4
MAX_GRID_POINTS = 2**20


def pld_interval(step_pld, steps: int, requested=None) -> float:
    """The PLD interval: ``requested`` if given, else :data:`DEFAULT_GRID`, coarsened so that the
    composed loss (about 17 standard deviations wide once the FFT compositions cut their 1e-16
    tails) takes at most :data:`MAX_GRID_POINTS` grid points."""
    if requested is not None:
        return float(requested)
    m = np.exp(np.asarray(step_pld.log_mass, dtype=float))
    l = step_pld.losses
    total = float(np.sum(m))
    if total <= 0:
        return DEFAULT_GRID
    mean = float(np.sum(m * l)) / total
    var = max(float(np.sum(m * (l - mean) ** 2)) / total, 0.0)
    width = 17.0 * math.sqrt(steps * var) + 2 * step_pld.interval
    return max(DEFAULT_GRID, width / MAX_GRID_POINTS)


def _enc_pld(pld):
    from .bayes_error import pld_enclosure

    return pld_enclosure(pld)


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


def _exact_curves(build, key_fn):
    def curves(m):
        from . import curves as cv

        return cv.exact(m.name, build(m.params, m.steps), key_fn(m.params, m.steps), identity=m.identity)
    return curves


def _gaussian_key(p, t):
    return ("pp",) if p["mu"] == 0 else ("gaussian", float(p["mu"]), int(t))


def _rr_key(p, t):
    return ("pp",) if p["eps"] == 0 else ("rr", float(p["eps"]), int(p["k"]), int(t))


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


def laplace_upper_bound(eps: float, points: int = 2000) -> tradeoff.PiecewiseLinear:
    """A piecewise-linear upper bound of the Laplace trade-off function: its chords between
    ``points`` geometric points of the hyperbolic piece e^{-eps}/(4 alpha) on [e^{-eps}/2, 1/2]
    (the linear pieces are exact), each value rounded up by 1e-15 relative (a chord of a convex
    function lies above it)."""
    e = validate.positive("eps", eps)
    a = np.geomspace(0.5 * math.exp(-e), 0.5, points)
    a[0], a[-1] = 0.5 * math.exp(-e), 0.5
    c = 0.25 * math.exp(-e)
    ys = np.minimum(c / a * (1 + 1e-15) + 1e-300, 1.0 - a)
    ka = np.concatenate([[0.0], a, [1.0]])
    kb = np.concatenate([[1.0], ys, [0.0]])
    return tradeoff.from_knots(ka, kb, tol=1e-15)


def _laplace(p, steps):
    if steps == 1:
        return tradeoff.Laplace(p["eps"])
    from ..pld import PLD  # contract with helper "pld"

    lb = laplace_lower_bound(p["eps"])
    step = PLD.from_pmfs(lb.p_mass, lb.q_mass, pessimistic=True)
    d = pld_interval(step, steps, p.get("grid"))
    if d != step.interval:
        step = PLD.from_pmfs(lb.p_mass, lb.q_mass, pessimistic=True, interval=d)
    return step.self_compose(steps).tradeoff()


def _laplace_curves(m):
    from . import curves as cv

    p, steps = m.params, m.steps
    if steps == 1:
        return cv.exact(m.name, tradeoff.Laplace(p["eps"]), ("laplace", float(p["eps"]), 1), identity=m.identity)
    from ..pld import PLD  # contract with helper "pld"

    lb, ub = laplace_lower_bound(p["eps"]), laplace_upper_bound(p["eps"])
    d = pld_interval(PLD.from_pmfs(lb.p_mass, lb.q_mass, pessimistic=True), steps, p.get("grid"))
    lower = PLD.from_pmfs(lb.p_mass, lb.q_mass, pessimistic=True, interval=d).self_compose(steps)
    upper = PLD.from_pmfs(ub.p_mass, ub.q_mass, pessimistic=False, interval=d).self_compose(steps)
    note = (f"Laplace composed {steps} times: piecewise-linear curves below and above it (2000 tangents / chords), "
            f"pessimistic and optimistic PLDs, grid {d:g}")
    return cv.CertifiedCurves(m.name, lower=_enc_pld(lower), upper=_enc_pld(upper),
                              family=("laplace", float(p["eps"]), int(steps)), note=note, identity=m.identity)


def _sgm(p, steps):
    from ..subsampled import SubsampledGaussian  # contract with helper "pld"

    if p["p"] == 1:
        return tradeoff.Gaussian(math.sqrt(steps) / p["sigma"])
    mech = SubsampledGaussian(p["sigma"], p["p"], steps)
    return mech.tradeoff(interval=_sgm_interval(mech, p))


def _sgm_interval(mech, p):
    if p.get("grid") is not None:
        return float(p["grid"])
    # the spread of one step's loss, from a coarse PLD (the default grid is kept unless coarsened)
    step = mech.step_pld(interval=1e-2, tilt=0.0)
    return pld_interval(step, mech.steps, None)


def _sgm_curves(m):
    from . import bayes_error as be
    from . import curves as cv
    from ..subsampled import SubsampledGaussian  # contract with helper "pld"

    p, steps = m.params, m.steps
    if p["p"] == 1:  # the Gaussian mechanism with mu = 1/sigma
        return cv.exact(m.name, _sgm(p, steps), ("gaussian", 1.0 / p["sigma"], int(steps)), identity=m.identity)
    mech = SubsampledGaussian(p["sigma"], p["p"], steps)
    d = _sgm_interval(mech, p)
    lo_r, lo_a = mech.plds(interval=d, pessimistic=True, tilt=0.0)
    hi_r, hi_a = mech.plds(interval=d, pessimistic=False, tilt=0.0)
    lower = be.minimum(_enc_pld(lo_r), _enc_pld(lo_a))
    upper = be.minimum(_enc_pld(hi_r), _enc_pld(hi_a))
    note = (f"add/remove symmetrisation min(f, f^-1)** of the {steps}-fold composition; pessimistic and optimistic "
            f"PLDs, grid {d:g}")
    return cv.CertifiedCurves(m.name, lower=lower, upper=upper,
                              family=("sgm", float(p["sigma"]), float(p["p"]), int(steps)), note=note, identity=m.identity)


def _sgm_sym_pld(m, pessimistic):
    from ..subsampled import SubsampledGaussian  # the per-step symmetrisation lives there

    p, steps = m.params, m.steps
    mech = SubsampledGaussian(p["sigma"], p["p"], steps)
    d = _sgm_interval(mech, p)
    return mech.pld(interval=d, pessimistic=pessimistic, direction="symmetrised", tilt=0.0), d


def _sgm_sym(p, steps):
    if p["p"] == 1:
        return tradeoff.Gaussian(math.sqrt(steps) / p["sigma"])
    from ..subsampled import SubsampledGaussian

    mech = SubsampledGaussian(p["sigma"], p["p"], steps)
    return mech.pld(interval=_sgm_interval(mech, p), direction="symmetrised", tilt=0.0).tradeoff()


def _sgm_sym_curves(m):
    from . import curves as cv

    p, steps = m.params, m.steps
    if p["p"] == 1:
        return cv.exact(m.name, _sgm(p, steps), ("gaussian", 1.0 / p["sigma"], int(steps)), identity=m.identity)
    lower, d = _sgm_sym_pld(m, True)
    upper, _ = _sgm_sym_pld(m, False)
    note = (f"per-step symmetrisation C_p(G_1/sigma) (Dong, Roth, Su 2022) composed {steps} times; pessimistic and "
            f"optimistic PLDs, grid {d:g}")
    return cv.CertifiedCurves(m.name, lower=_enc_pld(lower), upper=_enc_pld(upper),
                              family=("sgm_sym", float(p["sigma"]), float(p["p"]), int(steps)), note=note,
                              identity=m.identity)


def _shuffle(p, steps):
    n = int(p["n"])
    if steps == 1:
        from ..shuffle.fdp import shuffle_tradeoff  # contract with helper "shuffle-fdp"

        return shuffle_tradeoff(p["eps0"], n)
    from ..shuffle.rounds import rounds_pld  # contract with helper "pld"

    return rounds_pld(p["eps0"], n, steps, interval=p.get("grid")).tradeoff()


def _shuffle_curves(m):
    from . import bayes_error as be
    from . import curves as cv

    p, steps = m.params, m.steps
    n = int(p["n"])
    if steps == 1:
        from ..shuffle.fdp import shuffle_tradeoff  # contract with helper "shuffle-fdp"

        lower = be.enclosure(shuffle_tradeoff(p["eps0"], n))
        note = "C(f_Shuffle) (Wang et al. 2023, Theorem 4.2 as an inequality): a certified lower bound"
    else:
        from ..shuffle.rounds import rounds_pld  # contract with helper "pld"

        lower = _enc_pld(rounds_pld(p["eps0"], n, steps, interval=p.get("grid"), tilt=0.0))
        note = f"the clone pair's PLD composed {steps} times (pessimistic): a certified lower bound"
    return cv.CertifiedCurves(m.name, lower=lower, upper=None, note=note + "; no certified upper bound", identity=m.identity)


def _pp(p, steps):
    from .extremal import perfectly_private

    return perfectly_private()


def _bnp(p, steps):
    from .extremal import blatantly_non_private

    return blatantly_non_private()


def _grid(name, v):
    return validate.positive(name, v)


#: marks an optional parameter (absent from ``Mechanism.params`` unless given)
OPTIONAL = "optional"


def _n(name, v):
    return validate.n(name, v)


def _eps0(name, v):
    return validate.eps0(name, v)


@dataclasses.dataclass(frozen=True)
class Family:
    """One registered mechanism: parameters (name -> (check, default, None for required, or
    :data:`OPTIONAL`)), the constructor of its trade-off function (params, steps) -> TradeOff
    (exact, or the certified lower bound), whether that curve is exact at (params, steps), and
    the constructor of what is certified about it (Mechanism -> CertifiedCurves)."""

    name: str
    params: dict
    build: Callable
    exact: Callable[[dict, int], bool]
    description: str
    curves: Callable


#: the registry: one line per mechanism
MECHANISMS = {f.name: f for f in (
    Family("gaussian", {"mu": (validate.mu, None)}, _gaussian, lambda p, t: True,
           "Gaussian mechanism, mu = sensitivity/sigma", _exact_curves(_gaussian, _gaussian_key)),
    Family("laplace", {"eps": (_pos, None), "grid": (_grid, OPTIONAL)}, _laplace, lambda p, t: t == 1,
           "Laplace mechanism, eps = sensitivity/scale", _laplace_curves),
    Family("rr", {"eps": (_nonneg, None), "k": (_int2, 2)}, _rr, lambda p, t: True,
           "k-ary randomized response, eps-LDP", _exact_curves(_rr, _rr_key)),
    Family("sgm", {"sigma": (_pos, None), "p": (_prob, None), "grid": (_grid, OPTIONAL)}, _sgm,
           lambda p, t: p["p"] == 1, "Poisson-subsampled Gaussian (DP-SGD)", _sgm_curves),
    Family("sgm_sym", {"sigma": (_pos, None), "p": (_prob, None), "grid": (_grid, OPTIONAL)}, _sgm_sym,
           lambda p, t: p["p"] == 1, "subsampled Gaussian symmetrised per step (C_p; Theorem 3 applies)",
           _sgm_sym_curves),
    Family("shuffle", {"eps0": (_eps0, None), "n": (_n, None), "grid": (_grid, OPTIONAL)}, _shuffle,
           lambda p, t: False, "shuffled eps0-LDP randomizer", _shuffle_curves),
    Family("pp", {}, _pp, lambda p, t: True, "perfectly private mechanism M_PP (f = 1 - alpha)",
           _exact_curves(_pp, lambda p, t: ("pp",))),
    Family("bnp", {}, _bnp, lambda p, t: True, "blatantly non-private mechanism M_BNP (f = 0)",
           _exact_curves(_bnp, lambda p, t: ("bnp",))),
)}

GRAMMAR = 'NAME "(" [KEY=NUMBER {, KEY=NUMBER}] ")" ["^" T]   (every mechanism also takes steps=T)'


def known() -> str:
    """The registered mechanisms with their parameters, for error messages and --help."""
    rows = []
    for f in MECHANISMS.values():
        args = ", ".join(k + ("=..." if d is None else "=(optional)" if d == OPTIONAL else f"={d:g}")
                         for k, (_, d) in f.params.items())
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
    def identity(self) -> tuple:
        """The mechanism itself (family, parameters, steps), without the numerical ``grid``."""
        return (self.family, tuple(sorted((k, float(v)) for k, v in self.params.items() if k != "grid")), self.steps)

    @property
    def kind(self) -> str:
        """"exact" or "lower": what :meth:`tradeoff` returns (the exact trade-off function or a
        certified lower bound of it); :meth:`curves` says what else is certified."""
        return "exact" if self.exact else "lower"

    def tradeoff(self) -> tradeoff.TradeOff:
        """The exact trade-off function, or a certified lower bound of it (see :attr:`kind`)."""
        cache = self.__dict__.setdefault("_cache", {})
        if "f" not in cache:
            cache["f"] = MECHANISMS[self.family].build(self.params, self.steps)
        return cache["f"]

    def curves(self):
        """What is certified about the mechanism's trade-off function
        (:class:`~dptheory.comparison.curves.CertifiedCurves`: the exact curve, or Bayes error
        enclosures from a lower and an upper bound of it); cached."""
        cache = self.__dict__.setdefault("_cache", {})
        if "curves" not in cache:
            cache["curves"] = MECHANISMS[self.family].curves(self)
        return cache["curves"]


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
        if key not in given and default == OPTIONAL:
            continue
        params[key] = check(key, given.get(key, default))
    return Mechanism(fam, params, steps, text)

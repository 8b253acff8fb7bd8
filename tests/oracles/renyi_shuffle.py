"""Independent oracle for the Renyi divergence of the shuffle model: exact enumeration of the
shuffled output at small n, and direct summation of the clone pairs and of Girgis et al.'s binary
randomized-response pair at moderate n. Certified intervals (mpmath.iv), written from the papers'
definitions without reading dptheory's code.

The model (Girgis, Data, Diggavi, Suresh, Kairouz 2021, Section 2.3; Feldman, McMillan, Talwar
2021). A finite local randomizer is a row-stochastic matrix ``pmfs`` (``pmfs[x][y]`` = P[R(x) = y],
inputs x, outputs y). Each of n users applies it to their input; the shuffler outputs the messages
in a uniformly random order, which carries exactly the information of their histogram h (the count
of each output), so the shuffled mechanism is the law of h (Girgis et al., eq. (4) and (17)). The
Renyi divergence of order lambda > 1 is

    D_lambda(P||Q) = log( sum_h P(h)^lambda Q(h)^(1 - lambda) ) / (lambda - 1)

(+inf when P(h) > 0 = Q(h) for some h). The RDP curve of the shuffled mechanism is its maximum
over ordered pairs of neighbouring datasets (datasets of n inputs that differ in one user's input);
by the symmetry of the shuffle, only the differing user's two inputs (a, b) and the multiset of the
other n - 1 inputs matter, so :func:`worst_case_renyi` maximises over those, both orders (a, b)
and (b, a) included.

Certification. The histogram laws are computed by a dynamic programme over users in interval
arithmetic, so every probability is an interval that contains the exact value for the given
matrix entries (each taken exactly, or enclosed: :func:`tests.oracles.certified.interval`); the
divergence is then an interval function of them. Nothing is truncated at small n. The clone pairs
and the binary pair at moderate n: see their functions.

Results are ``(lower, upper)`` mpmath numbers at ``digits`` digits, rounded outwards.
"""

from __future__ import annotations

import math

import mpmath
from mpmath import iv, mpf

from tests.oracles import discrete
from tests.oracles.certified import enclose, hi, imax, interval, lo

# ----------------------------------------------------------------------------- histogram laws


def _rows(pmfs):
    """Interval rows of a randomizer given as a matrix, or as a callable returning one (evaluated
    here, at the working precision: see :func:`grr_pmfs`)."""
    if callable(pmfs):
        pmfs = pmfs()
    rows = [[interval(v) for v in row] for row in pmfs]
    width = len(rows[0])
    for x, row in enumerate(rows):
        if len(row) != width:
            raise ValueError(f"pmfs row {x} has {len(row)} entries, row 0 has {width}")
        total = sum(row, iv.mpf(0))
        if not (lo(total) <= 1 + mpf(10) ** -9 and hi(total) >= 1 - mpf(10) ** -9):
            raise ValueError(f"pmfs row {x} sums to {total}, not 1")
    return rows


def add_user(law: dict, row) -> dict:
    """The histogram law after one more user whose message has distribution ``row``."""
    out: dict[tuple, object] = {}
    for hist, pr in law.items():
        for y, py in enumerate(row):
            if hi(py) == 0:
                continue
            key = hist[:y] + (hist[y] + 1,) + hist[y + 1:]
            term = pr * py
            out[key] = out[key] + term if key in out else term
    return out


def histogram_law(pmfs, inputs) -> dict:
    """The law of the shuffled output (histogram -> interval probability) of the users whose
    inputs are listed in ``inputs`` (indices into the rows of ``pmfs``)."""
    rows = _rows(pmfs)
    law = {(0,) * len(rows[0]): iv.mpf(1)}
    for x in inputs:
        law = add_user(law, rows[x])
    return law


def law_renyi(p_law: dict, q_law: dict, order):
    """Interval of D_lambda(P||Q) for two laws given as dicts (missing keys have probability 0)."""
    keys = list(set(p_law) | set(q_law))
    zero = iv.mpf(0)
    return discrete.renyi([p_law.get(k, zero) for k in keys], [q_law.get(k, zero) for k in keys], order)


def _check_order(order):
    if not lo(interval(order)) > 1:
        raise ValueError(f"order must be > 1, got {order}")


def shuffled_renyi(pmfs, inputs_p, inputs_q, order, digits: int = 50):
    """The exact Renyi divergence D_lambda(M(D)||M(D')) of the shuffled mechanism M on two datasets.

    Parameters
    ----------
    pmfs : matrix or callable
        The local randomizer, ``pmfs[x][y]`` = P[R(x) = y] (exact numbers or intervals), or a
        callable returning it (evaluated at the working precision, see :func:`grr_pmfs`).
    inputs_p, inputs_q : list of int
        The datasets D and D' (input indices, one per user, equal lengths n).
    order : number
        lambda > 1, real.
    digits : int
        Decimal digits of the result.

    Returns
    -------
    (lower, upper) : mpmath numbers
        An enclosure of the divergence (+inf ends when P is not absolutely continuous w.r.t. Q).

    Notes
    -----
    Exact enumeration of the C(n + B - 1, B - 1) histograms of B outputs (keep n about 8 or less);
    nothing is truncated, every probability is an interval.
    """
    _check_order(order)
    if len(inputs_p) != len(inputs_q):
        raise ValueError(f"datasets of different sizes: {len(inputs_p)} and {len(inputs_q)}")

    def compute():
        rows = _rows(pmfs)
        return law_renyi(histogram_law(rows, inputs_p), histogram_law(rows, inputs_q), order)

    return enclose(compute, digits, nonnegative=True)


def shuffled_renyi_both(pmfs, inputs_a, inputs_b, order, digits: int = 50):
    """max(D_lambda(M(D)||M(D')), D_lambda(M(D')||M(D))): the Renyi DP of one pair of datasets in both
    directions, as an enclosure ``(lower, upper)`` (parameters as :func:`shuffled_renyi`)."""
    _check_order(order)

    def compute():
        rows = _rows(pmfs)
        pa, pb = histogram_law(rows, inputs_a), histogram_law(rows, inputs_b)
        return imax(law_renyi(pa, pb, order), law_renyi(pb, pa, order))

    return enclose(compute, digits, nonnegative=True)


def other_users(rows, others: int):
    """Yield ``(counts, law)`` for every multiset of ``others`` inputs (``counts[x]`` users hold
    input x) with the histogram law of their messages; laws of common prefixes are shared."""
    k = len(rows)
    start = {(0,) * len(rows[0]): iv.mpf(1)}

    def rec(x, left, counts, law):
        if x == k - 1:
            for _ in range(left):
                law = add_user(law, rows[x])
            yield counts + (left,), law
            return
        current = law
        for c in range(left + 1):
            yield from rec(x + 1, left - c, counts + (c,), current)
            if c < left:
                current = add_user(current, rows[x])

    yield from rec(0, others, (), start)


def worst_case_renyi(pmfs, n: int, order, digits: int = 50):
    """The Renyi DP of n shuffled users: the maximum of D_lambda(M(D)||M(D')) over every ordered pair
    of neighbouring datasets of n inputs (Girgis et al. 2021, Definition 3).

    Parameters
    ----------
    pmfs : matrix or callable
        The local randomizer (as in :func:`shuffled_renyi`), k inputs.
    n : int
        Number of users (>= 1).
    order : number
        lambda > 1.
    digits : int
        Decimal digits of the result.

    Returns
    -------
    lower, upper : mpmath numbers
        An enclosure of the maximum (the maximum of enclosures is enclosed by the maxima of their
        ends).
    witness : tuple
        ``(a, b, counts)``, the pair with the largest lower end: user 1 holds a in D and b in D',
        ``counts[x]`` other users hold x.

    Notes
    -----
    By the symmetry of the shuffle only the differing user's inputs and the multiset of the others
    matter: C(n + k - 2, k - 1) multisets times k (k - 1) ordered pairs, each over C(n + B - 1, B - 1)
    histograms.
    """
    _check_order(order)
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    witness = {}

    def compute():
        rows = _rows(pmfs)
        best_lo, best_hi, where = None, None, None
        for counts, law in other_users(rows, n - 1):
            with_input = [add_user(law, rows[x]) for x in range(len(rows))]
            for a in range(len(rows)):
                for b in range(len(rows)):
                    if a == b:
                        continue
                    d = law_renyi(with_input[a], with_input[b], order)
                    if best_lo is None or lo(d) > best_lo:
                        best_lo, where = lo(d), (a, b, counts)
                    best_hi = hi(d) if best_hi is None else max(best_hi, hi(d))
        witness["pair"] = where
        return iv.mpf([best_lo, best_hi])

    low, high = enclose(compute, digits, nonnegative=True)
    return low, high, witness["pair"]


# ----------------------------------------------------------------------------- the clone pairs


def clone_probability(eps0, kind):
    """The clone probability p as an interval: ``"clones"`` e^-eps0 (Feldman, McMillan, Talwar 2021,
    Theorem 3.2), ``"stronger"`` 2/(e^eps0 + 1) (the stronger clones of Feldman, McMillan, Talwar
    2023, used by Wang et al. 2023), or a number in (0, 1]."""
    e = interval(eps0)
    if kind == "clones":
        return iv.exp(-e)
    if kind == "stronger":
        return 2 / (iv.exp(e) + 1)
    p = interval(kind)
    if not (lo(p) > 0 and hi(p) <= 1):
        raise ValueError(f"clone probability must lie in (0, 1], got {kind}")
    return p


def _chernoff_upper_tail(n: int, p, k: int):
    """Interval whose upper end bounds P[Bin(n, p) >= k] for k >= n p (Chernoff-Hoeffding:
    exp(-n KL(k/n || p)))."""
    if k > n:
        return iv.mpf(0)
    x = iv.mpf(k) / n
    if lo(x - p) < 0:   # the bound holds for k/n >= p only
        return iv.mpf(1)
    kl = (x * iv.log(x / p) if k > 0 else iv.mpf(0))
    if k < n:
        kl += (1 - x) * iv.log((1 - x) / (1 - p))
    return iv.exp(-n * kl)


def _chernoff_lower_tail(n: int, p, k: int):
    """Interval whose upper end bounds P[Bin(n, p) <= k] for k <= n p."""
    if k < 0:
        return iv.mpf(0)
    return _chernoff_upper_tail(n, 1 - p, n - k)


def _count_window(n: int, p, tau) -> tuple[int, int, object]:
    """A window [lo, hi] of Bin(n, p) values and an interval bounding the mass outside it (at most
    about tau), by the Chernoff bounds (found by a scan, then bounded in interval arithmetic)."""
    if n == 0:
        return 0, 0, iv.mpf(0)
    mean = float(lo(p)) * n
    a = max(0, int(math.floor(mean)))
    b = min(n, int(math.ceil(mean)))
    step = max(1, int(math.sqrt(n * float(lo(p)) * (1 - float(lo(p)))) // 2) + 1)
    while a > 0 and hi(_chernoff_lower_tail(n, p, a - 1)) > tau:
        a = max(0, a - step)
    while b < n and hi(_chernoff_upper_tail(n, p, b + 1)) > tau:
        b = min(n, b + step)
    out = _chernoff_lower_tail(n, p, a - 1) + _chernoff_upper_tail(n, p, b + 1)
    return a, b, iv.mpf([0, hi(out)])


def clone_pair_renyi(eps0, n: int, order, clone_prob="clones", *, reverse: bool = False,
                     digits: int = 50):
    """The Renyi divergence of the clone pair of n users with local budget eps0.

    Parameters
    ----------
    eps0 : number
        The local budget (>= 0).
    n : int
        Number of users (>= 1).
    order : number
        lambda > 1.
    clone_prob : "clones", "stronger" or number
        The clone probability p (see :func:`clone_probability`).
    reverse : bool
        D_lambda(Q||P) instead of D_lambda(P||Q).
    digits : int
        Decimal digits of the result.

    Returns
    -------
    (lower, upper) : mpmath numbers
        An enclosure of the divergence.

    Notes
    -----
    The pair (Feldman, McMillan, Talwar 2021, Theorem 3.2; Chen, Cao, Ge 2024, Proposition 1):
    C ~ Bin(n - 1, p) clones, A | C ~ Bin(C, 1/2) of them clones of the first input,
    Delta ~ Bern(e^eps0 / (e^eps0 + 1)), and

        P = law of (A + Delta, C - A + 1 - Delta),   Q = law of (A + 1 - Delta, C - A + Delta),

    with p = e^-eps0 (``clone_prob="clones"``) or p = 2/(e^eps0 + 1) (``"stronger"``, the pair of
    Wang et al. 2023 Section 4; its general validity was withdrawn in the erratum of Feldman,
    McMillan, Talwar 2023, which does not matter for the divergence of the pair itself), or a given
    p. With pi = P[Delta = 1] and b_v(k) = C(v, k) 2^-v, the atom (a, v + 1 - a) of the slice C = v
    has

        P = w_v (pi b_v(a - 1) + (1 - pi) b_v(a)),   Q = w_v (pi b_v(a) + (1 - pi) b_v(a - 1)),

    w_v = C(n - 1, v) p^v (1 - p)^(n - 1 - v). Since C(v, a - 1) = C(v + 1, a) a/(v + 1) and C(v, a) =
    C(v + 1, a)(v + 1 - a)/(v + 1), with u_a = (1 - pi)(v + 1) + (2 pi - 1) a,

        P = w_v 2^-v C(v + 1, a) u_a / (v + 1),   Q = w_v 2^-v C(v + 1, a) (v + 1 - u_a) / (v + 1),

    and the atoms a and v + 1 - a share their logarithms. The pair is symmetric (swapping the
    coordinates maps P to Q), so both directions agree; ``reverse`` computes the other one anyway
    (a test checks it).

    Summation and its certification. The sum runs over a window of v (Chernoff bounds on the
    binomial tails) and, for each v, of a around v/2 (Hoeffding: P[|A - v/2| >= t] <= 2
    exp(-2 t^2 / v)); the P-mass left out is bounded by those tails, and each omitted atom
    contributes P (P/Q)^(lambda - 1) <= P e^(eps0 (lambda - 1)) (every likelihood ratio lies in
    [e^-eps0, e^eps0]). The windows are chosen so that this bound is below 2^-prec of the moment
    (which is >= 1), and the bound is added to the upper end. For n up to a few thousand.
    """
    _check_order(order)
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    if lo(interval(eps0)) < 0:
        raise ValueError(f"eps0 must be >= 0, got {eps0}")

    def compute():
        lam = interval(order)
        e = interval(eps0)
        big = iv.exp(e)
        pi = big / (big + 1)
        p = clone_probability(eps0, clone_prob)
        if reverse:
            first, second = 1 - pi, pi       # Q||P: the roles of pi and 1 - pi swap
        else:
            first, second = pi, 1 - pi
        # every omitted atom contributes at most P * e^(eps0 (lambda - 1))
        prec = iv.prec
        slack = iv.exp(hi(e) * (lam - 1))
        tau = mpf(2) ** -(prec + 4) / hi(slack)
        v_lo, v_hi, v_out = _count_window(n - 1, p, tau / 4)
        total = iv.mpf(0)
        omitted_mass = v_out
        diff = first - second
        for v in range(v_lo, v_hi + 1):
            w = _binomial_pmf(n - 1, p, v) / (iv.mpf(2) ** v * (v + 1))
            # Hoeffding window of A | C = v
            if v > 0:
                t = math.sqrt(v * (float(-mpmath.log(tau)) + math.log(16)) / 2)
                a_lo = max(0, int(math.floor(v / 2 - t)) + 1)
                a_hi = min(v + 1, int(math.ceil(v / 2 + t)))
                if a_lo > 0 or a_hi < v + 1:
                    tail = 2 * iv.exp(-2 * iv.mpf(t) ** 2 / v)
                    omitted_mass += _binomial_pmf(n - 1, p, v) * iv.mpf([0, hi(tail)])
            else:
                a_lo, a_hi = 0, 1
            inner = iv.mpf(0)
            size = iv.mpf(v + 1)
            done = set()
            for a in range(a_lo, a_hi + 1):
                if a in done:
                    continue
                mirror = v + 1 - a
                u = second * size + diff * a          # P / (w C(v+1, a)) ; Q / (...) = v + 1 - u
                log_u, log_rest = iv.log(u), iv.log(size - u)
                coeff = iv.mpf(math.comb(v + 1, a))
                inner += coeff * iv.exp(lam * log_u + (1 - lam) * log_rest)
                done.add(a)
                if a_lo <= mirror <= a_hi and mirror not in done:
                    # the mirrored atom: u' = v + 1 - u, same coefficient
                    inner += coeff * iv.exp(lam * log_rest + (1 - lam) * log_u)
                    done.add(mirror)
            total += w * inner
        omitted = iv.mpf([0, hi(omitted_mass * slack)])
        return discrete.renyi_from_moment(total + omitted, lam)

    return enclose(compute, digits, nonnegative=True)


def _binomial_pmf(n: int, p, k: int):
    """Interval of C(n, k) p^k (1 - p)^(n - k) (0^0 = 1)."""
    out = iv.mpf(math.comb(n, k))
    if k:
        out *= p ** k
    if n - k:
        out *= (1 - p) ** (n - k)
    return out


def clone_pair_pmfs(eps0, n: int, clone_prob="clones"):
    """The clone pair as two dicts (a, b) -> interval probability, every atom enumerated
    (O(n^2) atoms): for tests and small n."""
    e = interval(eps0)
    big = iv.exp(e)
    pi = big / (big + 1)
    p = clone_probability(eps0, clone_prob)
    P, Q = {}, {}
    for v in range(n):
        w = _binomial_pmf(n - 1, p, v)
        for a in range(v + 2):
            b_prev = iv.mpf(math.comb(v, a - 1)) / iv.mpf(2) ** v if a >= 1 else iv.mpf(0)
            b_here = iv.mpf(math.comb(v, a)) / iv.mpf(2) ** v if a <= v else iv.mpf(0)
            P[(a, v + 1 - a)] = w * (pi * b_prev + (1 - pi) * b_here)
            Q[(a, v + 1 - a)] = w * (pi * b_here + (1 - pi) * b_prev)
    return P, Q


# ----------------------------------------------------------------------------- Girgis et al.'s pair


def binary_rr_pair_renyi(eps0, n: int, order, *, reverse: bool = False, digits: int = 50):
    """The Renyi divergence of Girgis et al.'s lower-bound pair, as an enclosure ``(lower,
    upper)``.

    Parameters
    ----------
    eps0 : number
        The local budget.
    n : int
        Number of users (>= 1).
    order : number
        lambda > 1.
    reverse : bool
        D_lambda(M(D)||M(D')) instead of the direction of Theorem 3.4.
    digits : int
        Decimal digits of the result.

    Notes
    -----
    Girgis et al. 2021, Theorem 3.4 and Section 8: n users of binary randomized response (report the input w.p.
    e^eps0/(e^eps0 + 1)), D = (0, ..., 0) and D' = (0, ..., 0, 1). With p = 1/(e^eps0 + 1) and k the
    number of reported ones (sufficient for the histogram),

        M(D)(k) = C(n, k) p^k (1 - p)^(n - k),
        M(D')(k) = (1 - p) C(n - 1, k - 1) p^(k - 1) (1 - p)^(n - k) + p C(n - 1, k) p^k (1 - p)^(n - 1 - k).

    Returns D_lambda(M(D')||M(D)) (the direction of Theorem 3.4), or with ``reverse``
    D_lambda(M(D)||M(D')). All n + 1 terms are summed (no truncation)."""
    _check_order(order)
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")

    def compute():
        big = iv.exp(interval(eps0))
        p = 1 / (big + 1)
        ref = [_binomial_pmf(n, p, k) for k in range(n + 1)]
        odd = []
        for k in range(n + 1):
            term = iv.mpf(0)
            if k >= 1:
                term += (1 - p) * _binomial_pmf(n - 1, p, k - 1)
            if k <= n - 1:
                term += p * _binomial_pmf(n - 1, p, k)
            odd.append(term)
        if reverse:
            return discrete.renyi(ref, odd, order)
        return discrete.renyi(odd, ref, order)

    return enclose(compute, digits, nonnegative=True)


def grr_pmfs(eps0, d: int):
    """Generalised randomized response on d options (binary randomized response for d = 2): the
    rows of :func:`tests.oracles.discrete.rr_rows`, as a callable evaluated at the working
    precision."""
    return discrete.rr_rows(eps0, d)

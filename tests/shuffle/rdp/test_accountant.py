"""dptheory.shuffle.rdp.accountant against independent computations (the cross-method tests are in test_shuffle_rdp.py)."""


import mpmath

from dptheory.results import Kind, Status
from dptheory.shuffle import rdp



def test_shuffled_sgd_accountant():
    """Chen et al.'s accountant: its Gaussian approximations are labelled "not a bound" (they were
    "proven" before), Theorem 3's epsilon is the mu-GDP epsilon at mu = sqrt(T) 2 e^(eps0/2) /
    sqrt(m - 1) solved at 50 digits, and each certified route is Lemma 2.1 at the order it reports,
    recomputed from the closed form at 50 digits."""
    rows = {r.method: r for r in rdp.shuffled_sgd_epsilon(1.0, 100, 50, 1e-5)}
    for slug in ("chen-theorem-3", "chen-gdp-refined"):
        assert rows[slug].kind is Kind.APPROXIMATION and rows[slug].status is Status.NOT_A_BOUND
    certified = [r for r in rows.values() if r.kind is Kind.UPPER]
    assert {r.method for r in certified} == {"chen-exact", "girgis-upper-1", "girgis-upper-2"}
    assert all(r.status is Status.PROVEN for r in certified)
    assert rows["chen-exact"].upper <= min(rows["girgis-upper-1"].upper, rows["girgis-upper-2"].upper)
    with mpmath.workdps(50):
        mu = mpmath.sqrt(50) * 2 * mpmath.exp(mpmath.mpf(0.5)) / mpmath.sqrt(99)
        gap = lambda e: (mpmath.ncdf(-e / mu + mu / 2) - mpmath.exp(e) * mpmath.ncdf(-e / mu - mu / 2)
                         - mpmath.mpf(1e-5))
        ref = mpmath.findroot(gap, 12)
    assert rows["chen-theorem-3"].lower <= ref <= rows["chen-theorem-3"].upper
    route = rows["girgis-upper-2"]
    o = route.params["order"]
    with mpmath.workdps(50):
        rho_T = 50 * rdp.UPPER_2.mpmath(50)(1.0, 100, o)
        ref2 = rho_T + mpmath.log((o - 1) / mpmath.mpf(o)) - (mpmath.log(mpmath.mpf(1e-5)) + mpmath.log(o)) / (o - 1)
    assert ref2 <= route.upper <= ref2 * (1 + 1e-9)

"""Shared sympy symbols, with the assumptions the papers make about them.

Every closed form in the toolkit is written over these symbols, so that formulas from different
papers can be compared, substituted into each other and simplified together.
"""

from __future__ import annotations

import sympy as sp

# privacy parameters
eps = sp.Symbol("epsilon", real=True)            # central epsilon (may be negative in profiles)
eps0 = sp.Symbol("epsilon_0", nonnegative=True)  # local epsilon of a randomizer
delta = sp.Symbol("delta", positive=True)        # delta in (0, 1)
mu = sp.Symbol("mu", nonnegative=True)           # Gaussian DP parameter
lam = sp.Symbol("lambda", positive=True)         # Renyi order (> 1)
alpha = sp.Symbol("alpha", nonnegative=True)     # type I error in [0, 1]
pi = sp.Symbol("pi_prior", nonnegative=True)     # prior of a Bayesian adversary, in [0, 1]
sigma = sp.Symbol("sigma", positive=True)        # noise scale
sensitivity = sp.Symbol("Delta", positive=True)  # sensitivity of a query
b = sp.Symbol("b", positive=True)                # Laplace scale

# population
n = sp.Symbol("n", positive=True, integer=True)  # number of users
k = sp.Symbol("k", positive=True, integer=True)  # number of options of a randomizer
d = sp.Symbol("d", positive=True, integer=True)  # domain size
T = sp.Symbol("T", positive=True, integer=True)  # number of compositions

# variation-ratio parameters (Wang et al. 2024)
p = sp.Symbol("p", positive=True)                # ratio bound, > 1
beta = sp.Symbol("beta", nonnegative=True)       # total-variation bound
q = sp.Symbol("q", positive=True)                # ratio to the other users, >= 1
r = sp.Symbol("r", nonnegative=True)             # clone probability / 2
omega = sp.Symbol("Omega", positive=True)        # tail bound on the clone count (Theorem 4.2)

# statistics
x = sp.Symbol("x", real=True)
s = sp.Symbol("s", nonnegative=True)             # argument of an F-divergence generator
t = sp.Symbol("t", real=True)


def Phi(z):
    """Standard normal CDF as a sympy expression (erfc form, exact in the tails)."""
    return sp.erfc(-z / sp.sqrt(2)) / 2


def Phi_inv(u):
    """Standard normal quantile as a sympy expression."""
    return -sp.sqrt(2) * sp.erfcinv(2 * u)

rho = sp.Symbol("rho", nonnegative=True)         # an RDP value rho(lambda) at one order

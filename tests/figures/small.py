"""Parameters small enough for the default test run, per figure (the defaults reproduce the
papers' grids; the full figures run under ``-m slow``). One process each (``workers=1``): a pool
would cost more than these grids."""

SMALL = {
    "amplification-vs-n": dict(n="1e3,1e4", eps0="0.5", methods="clones,variation-ratio-lower,efmrtt19"),
    "amplification-vs-eps0": dict(eps0="0.5,2", n="1e4", methods="clones,variation-ratio-lower"),
    "rdp-curves": dict(orders="2,4,8", n=1000, methods="girgis-upper-1,girgis-lower,chen-gdp"),
    "wang-figure-1": dict(n="1e4", d="16", eps0="3", methods="variation-ratio,clones", workers=1),
    "wang-figure-2": dict(n="1e4", eps0="3", methods="variation-ratio,clones", workers=1),
    "girgis-figure-2": dict(orders="2,4,500", n="1e3,1e4", eps0="0.5,3", order=4),
    "girgis-figure-3": dict(n="1e4", eps0="1", methods="ub1,blanket-bennett", workers=1),
    "girgis-figure-4": dict(T="1,10", eps0="2", n="1e4", workers=1),
    "girgis-figure-5": dict(T="10", n="1e6", workers=1),
    "chen-figure-2": dict(eps0="0.5,2"),
    "chen-figure-3": dict(orders="2,8"),
}

SMALL.update({
    "wang-figure-5": dict(n="1e4", d="64", eps0="2", workers=1),
    "kaissis-figure-2": dict(points=101),
    "kaissis-figure-8": dict(points=101, lines=3),
    "wang-su-figure-3b": dict(points=51),
    "wang-su-figure-4": dict(points=51),
})
SMALL["kaissis-figure-1"] = dict(points=3, workers=1)
SMALL.update({
    "wang-figure-3": dict(n="1e5", eps="0.5,1.5"),
    "wang-figure-4": dict(eps="0.5,1.5"),
    "kaissis-figure-4": dict(first="1.5,0.5,2", second="1,0.1,4", points=201),
    "kaissis-figure-6": dict(p="0.6", steps="2", base="0.5,2", epsilon=2.0, workers=1),
})

#: figures whose render test runs only under ``-m slow``: kaissis-figure-6 calibrates every mechanism
#: by certified PLD evaluations (1.4 s of CPU even on one point; its calibration has a default-run
#: test of its own, tests/figures/test_paper_values.py::test_calibration_of_an_sgm)
SLOW_RENDER = {"kaissis-figure-6"}

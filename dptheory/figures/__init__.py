"""The registered figures: one :func:`dptheory.plots.register` line each (name, description,
``"module:function"`` computing its panels, default parameters). A figure of another family is
one more line here, its function in a module of this package named after the family."""

from ..plots import register

register("amplification-vs-n", "Shuffle amplification: epsilon(delta) against n, every method, upper and lower bounds",
         "dptheory.figures.amplification:versus_n", eps0="1", n="1e3..1e8", delta=1e-8, methods="",
         randomizer="general", workers=1)
register("amplification-vs-eps0", "Shuffle amplification: epsilon(delta) against eps0, every method, upper and lower bounds",
         "dptheory.figures.amplification:versus_eps0", eps0="0.25,0.5,1,1.5,2,3,4,5", n="1e5", delta=1e-8,
         methods="", randomizer="general", workers=1)
register("rdp-curves", "Shuffle RDP: every method's curve against the order, upper and lower bounds, approximations",
         "dptheory.figures.rdp:curves", eps0="1", n=10000, orders="2..64", methods="", compositions=1)
register("wang-figure-1", "Wang et al. (2024) Fig. 1: amplification ratio of shuffled subset selection, by method",
         "dptheory.figures.amplification:wang_figure_1", n="1e4,1e5", d="16,128",
         eps0="0.5,1,1.5,2,2.5,3,3.5,4,4.5,5", methods="")
register("wang-figure-2", "Wang et al. (2024) Fig. 2: amplification ratio of shuffled optimal local hashing, by method",
         "dptheory.figures.amplification:wang_figure_2", n="1e4,1e5", eps0="0.5,1,1.5,2,2.5,3,3.5,4,4.5,5", methods="")
register("girgis-figure-2", "Girgis et al. (2021) Fig. 2: RDP of one shuffle, UB1, UB2, lower bound, eq. (9)",
         "dptheory.figures.rdp:girgis_figure_2", orders="2,5,10,20,50,100,200,500,1000", n="1e3..1e7",
         eps0="0.1,0.5,1,1.5,2,2.5,3,4", order=100)
register("girgis-figure-3", "Girgis et al. (2021) Fig. 3: one shuffle, epsilon by the RDP routes, clones, blanket",
         "dptheory.figures.rdp:girgis_figure_3", n="1e3..1e7", eps0="0.25,0.5,1,1.5,2,2.5,3", delta=1e-6,
         methods="ub1,lb,clones,blanket-bennett")
register("girgis-figure-4", "Girgis et al. (2021) Fig. 4: T shuffles, the UB1 route against clones + KOV",
         "dptheory.figures.rdp:girgis_figure_4", T="1,10,100,1000,10000", eps0="0.5,2", n=10**6, delta=1e-8,
         notebook=True)
register("girgis-figure-5", "Girgis et al. (2021) Fig. 5: T subsampled shuffles (gamma = 1e-3), UB1 route vs clones + KOV",
         "dptheory.figures.rdp:girgis_figure_5", T="10,100,1000,10000", n="1e6,1e7", eps0=3.0, rate=1e-3, delta=1e-8,
         notebook=True)
register("chen-figure-2", "Chen, Cao, Ge (2024) Fig. 2: RDP at lambda = 4 against eps0, exact, approximations, bounds",
         "dptheory.figures.rdp:chen_figure_2", eps0="0.1..4:5", n=10000, order=4)
register("chen-figure-3", "Chen, Cao, Ge (2024) Fig. 3: RDP against lambda at eps0 = 2, exact, approximations, bounds",
         "dptheory.figures.rdp:chen_figure_3", orders="2,3,4,6,8,12,16,24,32,48,64", eps0=2.0, n=10000)
register("shuffle-tradeoff", "Wang et al. (2023): the trade-off curve of shuffling (certified lower bound), exact pair, GDP fit",
         "dptheory.figures.fdp:shuffle_tradeoff", eps0=2.0, n=50, points=61, reduction="stronger-clones")
register("delta-divergence", "Kaissis et al. (2024) Fig. 3: trade-off and Bayes error curves of two mechanisms, Delta both ways",
         "dptheory.figures.fdp:comparison", first="gaussian(mu=1)", second="laplace(eps=1)", points=101)

"""``dptheory gdp``: the privacy profile of mu-GDP, or its inverse (one call to
:func:`dptheory.profile.gdp`; the numbers printed are its certified Result)."""

from __future__ import annotations

from .. import profile, validate
from . import emit, no_effect
from ..presentation.numbers import fmt, fmt_bound, fmt_positive
from ..presentation.text import table


def add_parser(sub) -> None:
    p = sub.add_parser("gdp", help="Gaussian DP: delta(epsilon) or epsilon(delta) for mu-GDP")
    p.add_argument("--mu", type=float, default=1.0, help="GDP parameter (default 1)")
    p.add_argument("--epsilon", type=float, help="print delta at this epsilon")
    p.add_argument("--delta", type=float, default=1e-6, help="print epsilon at this delta (default 1e-6)")
    p.add_argument("--compose", default="1", help="number of compositions T (mu -> sqrt(T) mu; default 1, 1e6 "
                   "is accepted)")
    p.add_argument("--digits", help=f"evaluate with mpmath at this many digits ({validate.DIGITS_MIN} to "
                   f"{validate.DIGITS_MAX})")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run)


def run(args) -> int:
    no_effect(args, {"delta": "with --epsilon the command reports delta at that epsilon (--delta is the target "
                              "of epsilon(delta), the default mode)" if args.epsilon is not None else None})
    T = validate.count("compose", args.compose)
    digits = validate.digits(args.digits)
    res = profile.gdp(args.mu, epsilon=args.epsilon, delta=None if args.epsilon is not None else args.delta,
                      compositions=T, digits=digits)
    if args.json:
        emit(args, [res], {"compose": T, "digits": digits}
             | ({"delta": None} if args.epsilon is not None else {}))
        return 0
    d = res.as_dict()
    params = {k: v for k, v in d["params"].items() if k != "value"}
    print("mu-GDP: " + ", ".join(f"{k} = {fmt(v)}" for k, v in params.items()) + "\n")
    # the interval's ends rounded outwards: the lower down, the upper up
    row = {"method": d["method"], "kind": d["kind"], "status": d["status"],
           f"{res.quantity}_lower": fmt_positive(res.lower, res.log_lower, "down"),
           f"{res.quantity}_upper": fmt_positive(res.upper, res.log_upper, "up")}
    columns = list(row)
    if res.log_upper is not None:
        row.update(log_lower=fmt_bound(res.log_lower, "down"), log_upper=fmt_bound(res.log_upper, "up"))
        columns += ["log_lower", "log_upper"]
    table([row], columns)
    if "value" in d["params"]:
        print(f"\n{res.quantity} = {d['params']['value']}")
    elif digits is not None:
        print(f"\n{res.quantity} in [{res.lower!r}, {res.upper!r}]")
    print(f"\nsource: {res.source}")
    return 0

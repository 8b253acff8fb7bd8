"""The printer of the papers' notation: sympy expressions as a paper writes them.

:func:`to_latex` prints a sympy expression (or relational) as the source papers do:

* the standard normal CDF as :math:`\\Phi(\\cdot)` and its quantile as :math:`\\Phi^{-1}(\\cdot)`
  (the toolkit's expressions write them with ``erfc``/``erfcinv``, exact in the tails);
* every sum of terms with a positive term first (``n - 1 - C``, ``1 - \\alpha - \\delta``), a
  constant first inside a logarithm (``\\log(1 + x)``);
* common factors taken out of a sum (``\\frac{1}{2}(e^{-\\epsilon_1/2} - e^{-\\epsilon_2/2})``)
  and recognised squares factored (``(e^{\\epsilon_0} - 1)^2``, not
  ``e^{2\\epsilon_0} - 2 e^{\\epsilon_0} + 1``), a squared difference written with its larger
  term first;
* a product of square roots as one root (``\\sqrt{2 C \\log(4/\\delta)}``);
* a sum whose terms carry an indicator ``\\theta(m - k + 1/2)`` as a sum with the upper limit
  ``\\min(\\cdot, m)``;
* binomial coefficients as :math:`\\binom{n}{k}`, named functions (``\\max``, ``\\log``,
  ``\\lfloor\\cdot\\rfloor``) as such.

Every rewriting is an identity: :func:`presented` returns an expression equal to the given one
(tests/test_notation.py evaluates both at random points for every formula of the catalogue).

:func:`display_lines` lays a formula out for a displayed equation: one line when it fits
:data:`DISPLAY_WIDTH`, else broken before a sign of its top-level sum (inside a logarithm or a
quotient too), as ``multline`` sets it; nothing is ever shrunk. sympy is imported on first use.
"""

from __future__ import annotations

import functools

#: the width, in characters of display math (about 6 pt each at 11 pt), a displayed line may fill
#: in a one-column article with 2.5 cm margins (16 cm of text)
DISPLAY_WIDTH = 58.0


@functools.lru_cache(maxsize=None)
def _machinery():
    """The sympy classes of the paper notation, built on first use (sympy is imported lazily:
    the numeric commands that print booktabs tables never need it)."""
    import sympy as sp
    from sympy.printing.latex import LatexPrinter

    class NormalCDF(sp.Function):
        """The standard normal CDF, for printing only (the toolkit evaluates the erfc form)."""

        nargs = 1

        def _eval_evalf(self, prec):
            return (sp.erfc(-self.args[0] / sp.sqrt(2)) / 2)._eval_evalf(prec)

    class NormalQuantile(sp.Function):
        """The standard normal quantile, for printing only."""

        nargs = 1

        def _eval_evalf(self, prec):
            return (-sp.sqrt(2) * sp.erfcinv(2 * self.args[0]))._eval_evalf(prec)

    named = (NormalCDF, NormalQuantile)

    def linear(arg):
        # distribute numeric factors over sums, nothing else (no log or power expansion)
        return sp.expand(arg, deep=False, log=False, power_exp=False, power_base=False, multinomial=False)

    def phi(expr):
        """erfc, erf, erfcinv and erfinv written with Phi and Phi^{-1}."""
        return expr.replace(
            sp.erfc, lambda u: 2 * NormalCDF(linear(-sp.sqrt(2) * u))
        ).replace(
            sp.erf, lambda u: 2 * NormalCDF(linear(sp.sqrt(2) * u)) - 1
        ).replace(
            sp.erfcinv, lambda v: -NormalQuantile(linear(v / 2)) / sp.sqrt(2)
        ).replace(
            sp.erfinv, lambda v: NormalQuantile(linear((v + 1) / 2)) / sp.sqrt(2)
        )

    def indicator_sums(expr):
        """Sum(f(k) theta(m - k + 1/2), (k, a, b)) with m an integer expression -> Sum(f(k), (k, a,
        min(b, m))): the indicator [k <= m] written as the sum's limit."""
        def fix(s):
            (k, lo, hi), = s.limits if len(s.limits) == 1 else ((None, None, None),)
            if k is None:
                return s
            factors = sp.Mul.make_args(s.function)
            for h in factors:
                if not isinstance(h, sp.Heaviside):
                    continue
                arg = h.args[0]
                if sp.expand(arg).coeff(k) != -1:
                    continue
                m = arg + k - sp.Rational(1, 2)
                integer = all(term.is_integer or isinstance(term, (sp.floor, sp.ceiling))
                              for term in sp.Add.make_args(m))
                if m.has(k) or not integer:
                    continue
                rest = sp.Mul(*[f for f in factors if f is not h])
                return sp.Sum(rest, (k, lo, sp.Min(hi, m)))
            return s
        return expr.replace(lambda e: isinstance(e, sp.Sum), fix)

    def ops(e) -> int:
        return int(sp.count_ops(e, visual=False))

    def tidy_add(add):
        """A sum with its common factor taken out, or a recognised square factored, where that
        is shorter; the sum itself otherwise."""
        best, cost = add, ops(add)
        candidates = [sp.factor_terms(add)]
        if len(add.args) <= 6 and ops(add) <= 40:
            try:
                candidates.append(sp.factor(add, deep=False))
            except (sp.PolynomialError, NotImplementedError, TypeError, ValueError):
                pass  # sympy cannot factor this sum: the factored-terms form is the only candidate
        for cand in candidates:
            if cand == add or cand.is_Add or _only_sign(cand):
                continue
            c = ops(cand)
            if c < cost or (c == cost and _pulls_number(cand)):
                best, cost = cand, c
        return best

    def _only_sign(e) -> bool:
        """-(a + b): a sign taken out of a sum, which a paper does not write."""
        coeff, rest = e.as_coeff_Mul()
        return coeff == -1 and rest.is_Add

    def _pulls_number(e) -> bool:
        coeff, rest = e.as_coeff_Mul()
        return coeff not in (1, -1) and any(a.is_Add for a in sp.Mul.make_args(rest))

    def tidy(expr):
        """Bottom-up: :func:`tidy_add` on every sum of the expression."""
        if not isinstance(expr, sp.Basic) or expr.is_Atom:
            return expr
        if isinstance(expr, (sp.Sum, sp.Product)):
            return expr.func(tidy(expr.function), *expr.limits)
        if isinstance(expr, sp.Lambda):
            return expr
        args = [tidy(a) for a in expr.args]
        new = expr.func(*args) if args != list(expr.args) else expr
        if new.is_Add:
            new = tidy_add(new)
        return new

    def presented(expr):
        if not isinstance(expr, sp.Basic):
            return expr
        if isinstance(expr, sp.Rel):
            return expr.func(presented(expr.lhs), presented(expr.rhs), evaluate=False)
        if isinstance(expr, sp.Piecewise):
            return sp.Piecewise(*[(presented(e), c) for e, c in expr.args], evaluate=False)
        out = indicator_sums(phi(expr))
        try:
            out = tidy(out)
        except (sp.PolynomialError, NotImplementedError, TypeError, ValueError, RecursionError):
            pass  # sympy cannot rearrange it: printed in the shape it was built (the same value)
        return out

    def positive_first(terms):
        """The terms with the positive ones first, each group in its given order."""
        pos = [t for t in terms if not t.could_extract_minus_sign()]
        neg = [t for t in terms if t.could_extract_minus_sign()]
        return pos + neg

    class PaperPrinter(LatexPrinter):
        """sympy's LaTeX printer with the papers' notation (see the module docstring)."""

        def _print_NormalCDF(self, expr, exp=None):
            tex = r"\Phi\left(%s\right)" % self._print(expr.args[0])
            return tex if exp is None else r"%s^{%s}" % (tex, exp)

        def _print_NormalQuantile(self, expr, exp=None):
            tex = r"\Phi^{-1}\left(%s\right)" % self._print(expr.args[0])
            return tex if exp is None else r"\left(%s\right)^{%s}" % (tex, exp)

        def _print_Symbol(self, expr, style="plain"):
            if expr.name == "pi_prior":
                return r"\pi"
            if expr.name.endswith("'"):  # a primed symbol: epsilon' (Wang et al. 2024's global budget)
                return self._print_Symbol(sp.Symbol(expr.name[:-1]), style=style) + "'"
            return super()._print_Symbol(expr, style=style)

        def _print_Function(self, expr, exp=None):
            if isinstance(expr, sp.core.function.AppliedUndef):  # a named function: F(C)
                args = ", ".join(self._print(a) for a in expr.args)
                name = expr.func.__name__
                if name.endswith("_"):  # indexed by its first argument, as the paper writes it: s_i, F_i(u)
                    rest = ", ".join(self._print(a) for a in expr.args[1:])
                    tex = f"{self._print(sp.Symbol(name[:-1]))}_{{{self._print(expr.args[0])}}}"
                    tex += f"({rest})" if rest else ""
                else:
                    tex = f"{self._print(sp.Symbol(name))}({args})"
                return tex if exp is None else r"\left(%s\right)^{%s}" % (tex, exp)
            return super()._print_Function(expr, exp=exp)

        def _print_ExpBase(self, expr, exp=None):
            # e^{eps_0/2}: short fractions in an exponent folded, as the papers write them; a tall
            # exponent (a fraction of fractions, a floor) as exp(...)
            folded = self._settings["fold_short_frac"]
            self._settings["fold_short_frac"] = True
            try:
                inner = self._print(expr.args[0])
            finally:
                self._settings["fold_short_frac"] = folded
            if inner.count(r"\frac") >= 2 or r"\lfloor" in inner or r"\sum" in inner:
                tex = r"\exp\left(%s\right)" % self._print(expr.args[0])
                return tex if exp is None else r"\exp^{%s}\left(%s\right)" % (exp, self._print(expr.args[0]))
            return self._do_exponent(r"e^{%s}" % inner, exp)

        def _print_log(self, expr, exp=None):
            arg = expr.args[0]
            inner = self.add_terms(arg, constant_first=True) if arg.is_Add else self._print(arg)
            tex = r"\log\left(%s\right)" % inner
            return tex if exp is None else r"\log^{%s}\left(%s\right)" % (exp, inner)

        def _print_Pow(self, expr):
            base, e = expr.args
            if base.is_Add and e.is_Integer and e.is_even and _larger_term_first(base) is False:
                return super()._print_Pow(sp.Pow(-base, e, evaluate=False))
            return super()._print_Pow(expr)

        def _print_Mul(self, expr):
            factors = list(expr.args)
            # one root of a product, not a product of roots: sqrt(2) sqrt(C log(4/delta))
            roots = [f for f in factors if f.is_Pow and f.exp == sp.Rational(1, 2)]
            if len(roots) > 1:
                merged = sp.Mul(*[f.base for f in roots])
                rest = [f for f in factors if f not in roots]
                tex_root = r"\sqrt{%s}" % self._print(merged)
                if not rest:
                    return tex_root
                rest_tex = self._print(sp.Mul(*rest))
                if sp.Mul(*rest).is_Add:
                    rest_tex = r"\left(%s\right)" % rest_tex
                return f"{rest_tex} {tex_root}"
            # a logarithm after its coefficient: 1/(lambda - 1) log(...), not log(...)/(lambda - 1)
            logs = [f for f in factors if isinstance(f, sp.log)]
            if len(logs) == 1 and len(factors) > 1:
                rest = sp.Mul(*[f for f in factors if f is not logs[0]])
                num, den = sp.fraction(rest)
                if den != 1:
                    head = r"\frac{%s}{%s}" % (self._print(num), self._print(den))
                    if num.could_extract_minus_sign():
                        head = r"- \frac{%s}{%s}" % (self._print(-num), self._print(den))
                    return f"{head} {self._print(logs[0])}"
            # coefficients before the function applications: e^{eps} Phi(x), not Phi(x) e^{eps}
            phis = [a for a in factors if isinstance(a, named)]
            if not phis or len(phis) == len(factors):
                return super()._print_Mul(expr)
            rest = sp.Mul(*[a for a in factors if not isinstance(a, named)])
            tail = " ".join(self._print(a) for a in sorted(phis, key=sp.default_sort_key))
            if rest == 1:
                return tail
            if rest == -1:
                return "- " + tail
            head = self._print(rest)
            if rest.is_Add:
                head = r"\left(%s\right)" % head
            return f"{head} {tail}"

        def _print_Add(self, expr, order=None):
            return self.add_terms(expr, order=order)

        def add_terms(self, expr, order=None, constant_first=False) -> str:
            return "".join(self.term_texts(expr, order=order, constant_first=constant_first))

        def term_texts(self, expr, order=None, constant_first=False) -> list[str]:
            """The terms of a sum, printed, each with its sign (the first without a "+")."""
            terms = positive_first(list(self._as_ordered_terms(expr, order=order)))
            if constant_first:
                const = [t for t in terms if t.is_Number and t > 0]
                terms = const + [t for t in terms if t not in const]
            out = []
            for i, term in enumerate(terms):
                sign = ""
                if term.could_extract_minus_sign():
                    sign = "- " if i == 0 else " - "
                    term = -term
                elif i > 0:
                    sign = " + "
                term_tex = self._print(term)
                if self._needs_add_brackets(term):
                    term_tex = r"\left(%s\right)" % term_tex
                out.append(sign + term_tex)
            return out

    def _larger_term_first(base):
        """For a sum squared: False when the sum would read better negated (``1 - e^x`` ->
        ``e^x - 1``: the constant last), None when it does not matter."""
        terms = base.args
        negative = [t for t in terms if t.could_extract_minus_sign()]
        if len(negative) * 2 > len(terms):
            return False
        if len(negative) * 2 == len(terms):
            return not any(t.is_Number for t in terms if not t.could_extract_minus_sign())
        return True

    return {"presented": presented, "printer": PaperPrinter, "sp": sp, "named": named}


def presented(expr):
    """``expr`` rewritten for display, equal to it: Phi for erfc, indicator sums as limits,
    common factors and squares factored (see the module docstring)."""
    return _machinery()["presented"](expr)


def paper_notation(expr):
    """``expr`` with erfc/erf/erfcinv/erfinv rewritten as the normal CDF Phi and its quantile
    (unevaluated sympy functions ``NormalCDF``/``NormalQuantile``: for display only) and the
    other rewritings of :func:`presented`."""
    return presented(expr)


def to_latex(expr) -> str:
    """LaTeX of a sympy expression (or relational) in the papers' notation (see the module
    docstring). The expression itself is not changed."""
    m = _machinery()
    return m["printer"]().doprint(m["presented"](expr))


# ------------------------------------------------------------------------------ widths
def estimated_width(tex: str) -> float:
    """A rough width of display math, in characters (about 6 pt each): a fraction as wide as
    its wider part, scripts at 0.7, big operators with their limits, spacing commands as space."""
    return _Width(tex).total()


class _Width:
    _NAMED = {"log": 2.5, "exp": 2.5, "max": 3.0, "min": 3.0, "sup": 2.5, "inf": 2.5, "lim": 2.5,
              "quad": 2.0, "qquad": 4.0, "cdot": 1.0, "times": 1.6, "leq": 2.0, "geq": 2.0, "le": 2.0,
              "ge": 2.0, "neq": 2.0, "in": 2.0, "to": 2.0, "dots": 2.0, "ldots": 2.0, "cdots": 2.0,
              "infty": 1.3, "mathbb": 0.0, "mathrm": 0.0, "mathcal": 0.0, "operatorname": 0.0}
    _SPACES = {",": 0.3, ";": 0.5, ":": 0.4, "!": -0.2, " ": 0.5}
    _DELIMS = ("left", "right", "bigl", "bigr", "Bigl", "Bigr", "biggl", "biggr", "Biggl", "Biggr", "big", "Big",
               "bigg", "Bigg")

    def __init__(self, tex: str) -> None:
        self.s = tex
        self.i = 0

    def total(self) -> float:
        return self._until(None)

    def _arg(self) -> float:
        while self.i < len(self.s) and self.s[self.i] == " ":
            self.i += 1
        if self.i >= len(self.s):
            return 0.0
        ch = self.s[self.i]
        if ch == "{":
            self.i += 1
            return self._until("}")
        if ch == "\\":
            return self._command()
        self.i += 1
        return 1.0

    def _until(self, end: str | None) -> float:
        width = 0.0
        last_script = 0.0
        while self.i < len(self.s):
            ch = self.s[self.i]
            if end is not None and ch == end:
                self.i += 1
                break
            if ch == "\\":
                width += self._command()
                last_script = 0.0
            elif ch in "^_":
                self.i += 1
                w = 0.7 * self._arg()
                # a sub- and a superscript stack: the wider counts
                width += max(0.0, w - last_script)
                last_script = max(last_script, w)
                continue
            elif ch == "{":
                self.i += 1
                width += self._until("}")
            elif ch in "+-=<>":
                width += 2.0
                self.i += 1
            elif ch in "()[],.|":
                width += 0.6
                self.i += 1
            elif ch == " ":
                self.i += 1
            else:
                width += 1.0
                self.i += 1
            last_script = 0.0
        return width

    def _command(self) -> float:
        self.i += 1
        if self.i < len(self.s) and not self.s[self.i].isalpha():
            ch = self.s[self.i]
            self.i += 1
            return self._SPACES.get(ch, 1.0)
        start = self.i
        while self.i < len(self.s) and self.s[self.i].isalpha():
            self.i += 1
        name = self.s[start:self.i]
        if name in ("frac", "dfrac", "tfrac"):
            return max(self._arg(), self._arg()) + 0.4
        if name == "binom":
            return max(self._arg(), self._arg()) + 1.4
        if name == "sqrt":
            return self._arg() + 1.2
        if name in ("text", "textrm", "mathrm", "operatorname", "mathit", "mathbf", "mathcal", "bar", "hat",
                    "tilde", "widetilde", "overline", "boldsymbol"):
            return self._arg() * (0.9 if name.startswith("text") else 1.0)
        if name in self._DELIMS:
            if self.i < len(self.s):
                if self.s[self.i] == "\\":
                    self.i += 1
                    while self.i < len(self.s) and self.s[self.i].isalpha():
                        self.i += 1
                else:
                    self.i += 1
            return 0.7
        if name in ("sum", "prod"):
            sub = sup = 0.0
            while self.i < len(self.s) and self.s[self.i] in "_^ ":
                if self.s[self.i] == " ":
                    self.i += 1
                    continue
                which = self.s[self.i]
                self.i += 1
                w = 0.7 * self._arg()
                if which == "_":
                    sub = w
                else:
                    sup = w
            return max(1.8, sub, sup) + 0.4
        return self._NAMED.get(name, 1.0)


# ------------------------------------------------------------------------------ displays
def display_lines(expr, *, lhs: str = "", template: str = "{}", width: float | None = None) -> list[str]:
    """A formula as the lines of a displayed equation: ``[one line]`` when it fits ``width``
    (:data:`DISPLAY_WIDTH` by default), else broken before the signs of its top-level sum, or of
    the sum inside its logarithm (``\\frac{1}{\\lambda - 1} \\log\\biggl(1 + ... \\\\ + ...\\biggr)``),
    greedily filling each line. A formula with no sum to break at stays on one line (its
    builder should name a sub-expression instead)."""
    width = DISPLAY_WIDTH if width is None else width
    m = _machinery()
    sp = m["sp"]
    printer = m["printer"]()
    shown = m["presented"](expr)
    head = f"{lhs} = " if lhs else ""
    one = head + template.format(printer.doprint(shown))
    if estimated_width(one) <= width or template != "{}" or not isinstance(shown, sp.Basic):
        return [one]
    prefix, terms, suffix = _breakable(shown, printer, sp)
    if not terms:
        return [one]
    lines: list[str] = []
    current = head + prefix + terms[0]
    for term in terms[1:]:
        if estimated_width(current + term) > width:
            lines.append(current.rstrip())
            current = term.lstrip()
        else:
            current += term
    lines.append(current + suffix)
    return lines


def _breakable(expr, printer, sp) -> tuple[str, list[str], str]:
    """(prefix, signed terms, suffix) of a formula that can break at the signs of a sum: the sum
    itself, the argument of its logarithm, or of a logarithm over a denominator; else no terms."""
    if expr.is_Add:
        return "", printer.term_texts(expr), ""
    if isinstance(expr, sp.log) and expr.args[0].is_Add:
        return r"\log\biggl(", printer.term_texts(expr.args[0], constant_first=True), r"\biggr)"
    if expr.is_Mul:
        logs = [f for f in expr.args if isinstance(f, sp.log) and f.args[0].is_Add]
        if len(logs) == 1:
            rest = sp.Mul(*[f for f in expr.args if f is not logs[0]])
            num, den = sp.fraction(rest)
            coefficient = printer.doprint(rest) if den == 1 else (
                r"\frac{%s}{%s}" % (printer.doprint(num), printer.doprint(den)))
            if rest.is_Add:
                coefficient = r"\left(%s\right)" % coefficient
            return (coefficient + r" \log\biggl(", printer.term_texts(logs[0].args[0], constant_first=True),
                    r"\biggr)")
    return "", [], ""


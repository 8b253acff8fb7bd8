"""The one protocol of every method of every notion, and the registry of a notion's methods.

A **method** bounds (or computes) a privacy quantity of a **subject**: n shuffled users of a
randomizer, a mechanism, a mixture, a pair of mechanisms to compare. Whatever the notion, a method
is data with the same face (:class:`Method`):

* ``name`` (a slug), ``title`` (for a table), ``kind`` (upper / lower / exact / approximation),
  ``source`` (the paper and result), ``quantities`` (what it computes: ``"epsilon"`` at a delta,
  ``"delta"`` at an epsilon, ``"rdp"`` at orders, ``"tradeoff"`` at alphas, ``"delta-divergence"``);
* ``why_not(subject)``: the reason it does not apply, or None; ``applies(subject)``;
* ``status(subject)`` and ``status_why(subject)``: its proof status for that subject (a
  published bound may be proven for one randomizer and refuted for another), and why; the one
  place the status is set;
* ``compute(subject, quantity, at, **options)``: the certified :class:`~dptheory.results.Result`
  (or :class:`~dptheory.results.Curve`), or :class:`~dptheory.results.NotApplicable` with the
  reason; ``run(...)``: the same, an :class:`~dptheory.results.Inapplicable` record instead of the
  exception, never another exception for a subject outside the method's domain.

A **notion** (shuffle (epsilon, delta), shuffle RDP, composed rounds, mechanisms, mixtures,
comparison) lists its methods in one :class:`Registry`; :func:`registries` imports the modules
that define them and returns every registry by notion. One abstract contract test
(tests/contract.py), subclassed per notion, runs every method of every registry through the same
properties against an independent oracle.
"""

from __future__ import annotations

import abc
import dataclasses
import importlib
from typing import Any, Callable, ClassVar, Iterator, Mapping, Sequence

from .results import Curve, Inapplicable, Kind, NotApplicable, Result, Status
from .validate import ConditionError, DomainError

#: what each quantity is evaluated at (the argument of ``compute``)
QUANTITIES: dict[str, str] = {
    "epsilon": "delta",
    "delta": "epsilon",
    "rdp": "orders",
    "tradeoff": "alphas",
    "delta-divergence": "none",
}


class Method(abc.ABC):
    """One method of one notion, as data (see the module docstring).

    Subclasses set :attr:`notion` and provide :meth:`why_not`, :meth:`status_why` and
    :meth:`compute`; the instance attributes ``name``, ``title``, ``kind``, ``source`` and
    ``quantities`` are data (dataclass fields in the notions' modules).
    """

    notion: ClassVar[str] = ""
    name: str
    kind: Kind
    source: str
    quantities: tuple[str, ...]
    #: the method's name for a person (a table row); empty: the slug
    title: str = ""

    @abc.abstractmethod
    def why_not(self, subject) -> str | None:
        """The reason the method does not apply to ``subject`` (text with inline math), or None."""

    def applies(self, subject) -> bool:
        """True where :meth:`why_not` has no reason."""
        return self.why_not(subject) is None

    @abc.abstractmethod
    def status_why(self, subject) -> tuple[Status, str]:
        """The proof status for ``subject`` and why (empty when the source says it all)."""

    def status(self, subject) -> Status:
        """The proof status for ``subject`` (:meth:`status_why`)."""
        return self.status_why(subject)[0]

    def kind_for(self, quantity: str) -> Kind:
        """The kind of the results of ``quantity``: the method's, unless a quantity changes it (a
        lower bound on RDP converts to no bound on epsilon: an approximation)."""
        return self.kind

    def status_for(self, subject, quantity: str) -> Status:
        """The status of the results of ``quantity`` for ``subject``: :meth:`status`, unless the
        quantity makes the value an approximation (``not a bound``)."""
        if self.kind_for(quantity) is Kind.APPROXIMATION and self.kind is not Kind.APPROXIMATION:
            return Status.NOT_A_BOUND
        return self.status(subject)

    @abc.abstractmethod
    def compute(self, subject, quantity: str, at, **options) -> Result | Curve:
        """``quantity`` at ``at`` for ``subject``, certified; raises :class:`NotApplicable` with
        the reason outside the method's domain."""

    def check_quantity(self, quantity: str) -> None:
        """:class:`DomainError` for a quantity this method does not compute."""
        if quantity not in QUANTITIES:
            raise DomainError(f"quantity = {quantity!r} is invalid: must be one of {sorted(QUANTITIES)}")
        if quantity not in self.quantities:
            raise NotApplicable(f"{self.name} computes {', '.join(self.quantities)}, not {quantity}")

    def run(self, subject, quantity: str, at, **options) -> Result | Curve | Inapplicable:
        """:meth:`compute`, with an :class:`Inapplicable` record (the reason, the status for the
        subject) where the method does not apply, instead of an exception."""
        reason = self.why_not(subject)
        if reason is None and quantity not in self.quantities:
            reason = f"computes {', '.join(self.quantities)}, not {quantity}"
        if reason is None:
            try:
                return self.compute(subject, quantity, at, **options)
            except (NotApplicable, ConditionError) as exc:
                reason = str(exc)
                if reason.startswith(self.name + ": "):
                    reason = reason[len(self.name) + 2:]
        return self.inapplicable(subject, reason)

    def inapplicable(self, subject, reason: str, **params) -> Inapplicable:
        """The record of this method not applying to ``subject``."""
        return Inapplicable(self.name, self.kind, self.status(subject), self.source, reason,
                            params={**subject_params(subject), **params})

    def describe(self) -> dict[str, Any]:
        """The method as data (JSON-ready)."""
        return {"name": self.name, "title": self.title or self.name, "notion": self.notion, "kind": str(self.kind),
                "source": self.source, "quantities": list(self.quantities)}


def subject_params(subject) -> dict:
    """A subject's parameters for a result's ``params`` (its own ``params()`` where it has one)."""
    fn = getattr(subject, "params", None)
    return dict(fn()) if callable(fn) else {}


class Registry(Mapping[str, Method]):
    """The methods of one notion, by name, in their order (the order of tables)."""

    def __init__(self, notion: str, methods: Sequence[Method], *, subject: str) -> None:
        self.notion = notion
        self.subject = subject
        self._methods: dict[str, Method] = {}
        for m in methods:
            if m.name in self._methods:
                raise ValueError(f"{notion}: method {m.name!r} registered twice")
            if m.notion != notion:
                raise ValueError(f"{notion}: method {m.name!r} belongs to notion {m.notion!r}")
            self._methods[m.name] = m
        _REGISTRIES[notion] = self

    def __getitem__(self, name: str) -> Method:
        return self._methods[name]

    def __setitem__(self, name: str, method: Method) -> None:
        """Replace a method by another of the same name and notion (a test plants a wrong one
        with ``monkeypatch.setitem``); a new name is not added this way."""
        if name not in self._methods or method.name != name or method.notion != self.notion:
            raise KeyError(f"{self.notion}: only an existing method can be replaced, by one of its name")
        self._methods[name] = method

    def __delitem__(self, name: str) -> None:
        raise TypeError(f"{self.notion}: methods are not removed from a registry")

    def __iter__(self) -> Iterator[str]:
        return iter(self._methods)

    def __len__(self) -> int:
        return len(self._methods)

    def __repr__(self) -> str:
        return f"Registry({self.notion!r}, {list(self._methods)})"

    def get_method(self, name: str) -> Method:
        """The method called ``name``; :class:`DomainError` naming the valid ones otherwise."""
        if name not in self._methods:
            raise DomainError(f"method = {name!r} is invalid: must be one of {list(self._methods)}")
        return self._methods[name]

    def names(self, names: Sequence[str] | None = None) -> list[str]:
        """``names`` checked against the registry (every name when None); an empty list or an
        empty name is an error (a typo such as ``--methods ,`` must not run every method)."""
        if names is None:
            return list(self._methods)
        names = list(names)
        if not names or any(not str(n).strip() for n in names):
            raise DomainError(f"methods = {names!r} is invalid: must be non-empty names, among {list(self._methods)}")
        for n in names:
            self.get_method(n)
        return names

    def run(self, subject, quantity: str, at, names: Sequence[str] | None = None,
            **options) -> list[Result | Curve | Inapplicable]:
        """:meth:`Method.run` of every method named (all by default), in order."""
        return [self._methods[n].run(subject, quantity, at, **options) for n in self.names(names)]


_REGISTRIES: dict[str, Registry] = {}

#: modules whose import defines a notion's registry; extended as the toolkit grows
NOTION_MODULES = (
    "dptheory.shuffle.methods",
    "dptheory.shuffle.rdp.methods",
    "dptheory.shuffle.rounds_methods",
    "dptheory.mechanism_methods",
    "dptheory.mixtures.methods",
    "dptheory.comparison.methods",
)


def registries() -> dict[str, Registry]:
    """Every notion's registry, by notion (the modules of :data:`NOTION_MODULES` imported)."""
    for module in NOTION_MODULES:
        importlib.import_module(module)
    return dict(_REGISTRIES)


def registry(notion: str) -> Registry:
    """The registry of ``notion``; :class:`DomainError` naming the notions otherwise."""
    found = registries()
    if notion not in found:
        raise DomainError(f"notion = {notion!r} is invalid: must be one of {sorted(found)}")
    return found[notion]


@dataclasses.dataclass(frozen=True)
class FunctionMethod(Method):
    """A method whose computations are functions given as data: ``why_not_fn(subject)``,
    ``status_fn(subject) -> (Status, why)``, and one function per quantity,
    ``functions[quantity](subject, at, **options) -> Result | Curve``. The notions whose methods
    are thin wrappers of existing functions (mechanisms, mixtures, comparison, composed rounds)
    build their methods with it; the result's kind and status are the method's."""

    notion: str = ""  # type: ignore[misc]
    name: str = ""
    kind: Kind = Kind.UPPER
    source: str = ""
    why_not_fn: Callable[[Any], str | None] = lambda subject: None
    status_fn: Callable[[Any], tuple[Status, str]] = lambda subject: (Status.PROVEN, "")
    functions: Mapping[str, Callable] = dataclasses.field(default_factory=dict)
    title: str = ""
    #: True: a result carries the method's kind; False: the function's (a comparison's interval
    #: is exact where both curves are certified from both sides, a lower or upper bound otherwise)
    fixed_kind: bool = True

    @property
    def quantities(self) -> tuple[str, ...]:  # type: ignore[override]
        return tuple(self.functions)

    def why_not(self, subject) -> str | None:
        return self.why_not_fn(subject)

    def status_why(self, subject) -> tuple[Status, str]:
        return self.status_fn(subject)

    def compute(self, subject, quantity: str, at, **options) -> Result | Curve:
        self.check_quantity(quantity)
        reason = self.why_not(subject)
        if reason:
            raise NotApplicable(f"{self.name}: {reason}")
        out = self.functions[quantity](subject, at, **options)
        status, why = self.status_why(subject)
        note = "; ".join(x for x in (out.note, why if why not in out.note else "") if x)
        return out.replace(kind=self.kind if self.fixed_kind else out.kind, status=status, method=self.name,
                           source=out.source or self.source, note=note)

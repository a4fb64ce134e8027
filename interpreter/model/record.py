"""Small record classes that behave as ``dataclasses.dataclass`` makes them, without its
start-up cost: the standard decorator imports ``inspect`` (and through it ``ast`` and
``dis``) and compiles each method of each class from source (about half a millisecond
a class), which a fresh ``talon validate`` paid on every run for its fifteen records.

``@record`` (or ``@record(frozen=True)``) reads the class's annotated fields in order,
their defaults and ``field(default_factory=…)``, and gives the class what ``@dataclass``
with the same arguments gives it, as methods written once here rather than compiled
per class: ``__init__`` (fields by position or by name, in order; ``__post_init__``
called when the class has one), ``__repr__`` and ``__eq__`` unless the class writes its
own, ``__hash__`` over the fields for a frozen record (None, unhashable, for a mutable
one), and for a frozen one ``__setattr__`` and ``__delattr__`` that refuse
(``FrozenInstanceError``). Instances keep their fields in ``__dict__``, in order, and
pickle as plain objects.
"""
from __future__ import annotations


class FrozenInstanceError(AttributeError):
    """An assignment to a field of a frozen record."""


class _Factory:
    __slots__ = ("factory",)

    def __init__(self, factory):
        self.factory = factory


def field(*, default_factory):
    """A field whose default is made anew for each instance (``default_factory()``)."""
    return _Factory(default_factory)


_NO_DEFAULT = object()


def record(cls=None, /, *, frozen: bool = False):
    if cls is None:
        return lambda c: _make(c, frozen)
    return _make(cls, frozen)


def _make(cls, frozen: bool):
    names = tuple(cls.__dict__.get("__annotations__", {}))
    defaults = {}
    for name in names:
        default = cls.__dict__.get(name, _NO_DEFAULT)
        if isinstance(default, _Factory):
            defaults[name] = default
            delattr(cls, name)          # as dataclasses: no class attribute for these
        elif default is not _NO_DEFAULT:
            defaults[name] = default
        elif defaults:
            raise TypeError(f"non-default argument {name!r} follows default argument")
    own = set(cls.__dict__)
    cls._record_fields = names
    cls._record_names = frozenset(names)
    cls._record_defaults = defaults
    cls._record_post_init = "__post_init__" in own
    cls.__init__ = _init
    if "__repr__" not in own:
        cls.__repr__ = _repr
    if "__eq__" not in own:
        cls.__eq__ = _eq
    if frozen:
        cls.__setattr__ = _frozen_setattr
        cls.__delattr__ = _frozen_delattr
        if "__hash__" not in own:
            cls.__hash__ = _hash
    elif "__eq__" not in own and "__hash__" not in own:
        cls.__hash__ = None             # as dataclasses: equal by value, so not hashable
    return cls


def _init(self, *args, **kw):
    cls = self.__class__
    names = cls._record_fields
    if len(args) > len(names):
        raise TypeError(f"{cls.__qualname__}() takes {len(names)} arguments but {len(args)} were given")
    values = dict(zip(names, args))
    for name, value in kw.items():
        if name in values:
            raise TypeError(f"{cls.__qualname__}() got multiple values for argument {name!r}")
        if name not in cls._record_names:
            raise TypeError(f"{cls.__qualname__}() got an unexpected keyword argument {name!r}")
        values[name] = value
    d = self.__dict__
    if len(values) == len(names):
        for name in names:
            d[name] = values[name]
    else:
        defaults = cls._record_defaults
        for name in names:
            if name in values:
                d[name] = values[name]
            elif name in defaults:
                v = defaults[name]
                d[name] = v.factory() if isinstance(v, _Factory) else v
            else:
                raise TypeError(f"{cls.__qualname__}() missing a required argument: {name!r}")
    if cls._record_post_init:
        self.__post_init__()


def _values(self) -> tuple:
    d = self.__dict__
    return tuple([d[name] for name in self._record_fields])


def _repr(self) -> str:
    d = self.__dict__
    shown = ", ".join(f"{name}={d[name]!r}" for name in self._record_fields)
    return f"{self.__class__.__qualname__}({shown})"


def _eq(self, other):
    if other.__class__ is self.__class__:
        return _values(self) == _values(other)
    return NotImplemented


def _hash(self) -> int:
    return hash(_values(self))


def _frozen_setattr(self, name, value):
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _frozen_delattr(self, name):
    raise FrozenInstanceError(f"cannot delete field {name!r}")

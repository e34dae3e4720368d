"""torch.optim.lr_scheduler under `gradcli run`: the schedulers tutorials write, stepping the
learning rates of an optimizer's param groups as PyTorch 2.13's do (read in its sources; nothing
here is its code).

- Made, a scheduler sets each group's 'initial_lr' (the optimizer's repr shows it from then on),
  takes those as its base rates and steps once (last_epoch 0, the rates as they are).
- step() adds one to last_epoch and sets each group's rate by the scheduler's chainable rule
  (from the group's current rate); step(epoch) sets last_epoch and uses the closed form.
- get_last_lr() is the list of the rates the last step set.
"""

from __future__ import annotations

import ast
import bisect
import math
from collections import Counter
from typing import TYPE_CHECKING, Any, ClassVar

from gradcli.run.nn import NativeClass, NativeMethod, Optimizer, native_class
from gradcli.run.python import PythonError, address, bind_by_name

if TYPE_CHECKING:
    from gradcli.run.interpreter import Interpreter


class Scheduler:
    label = "LRScheduler"
    names: ClassVar[list[str]] = []
    defaults: ClassVar[dict[str, Any]] = {}

    def __init__(self, interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any]) -> None:
        names = ["optimizer", *self.names, "last_epoch"]
        if len(args) > len(names):
            raise PythonError("TypeError", f"{self.label}.__init__() takes from 2 to {len(names) + 1} positional "
                                           f"arguments but {len(args) + 1} were given")
        bound = {**self.defaults, "last_epoch": -1, **bind_by_name(f"{self.label}.__init__", names, args, kwargs)}
        missing = [n for n in names if n not in bound]
        if missing:
            raise PythonError("TypeError", f"{self.label}.__init__() missing {len(missing)} required positional "
                                           f"argument{'s' if len(missing) > 1 else ''}: "
                              + " and ".join(f"'{m}'" for m in missing))
        optimizer = bound["optimizer"]
        if not isinstance(optimizer, Optimizer):
            raise PythonError("TypeError", f"{getattr(optimizer, 'type_name', lambda: type(optimizer).__name__)()} "
                                           "is not an Optimizer")
        if bound["last_epoch"] != -1:
            raise interpreter.refuse(interpreter.call_node or interpreter.node or ast.Pass(),
                                     f"{self.label}(..., last_epoch=...) (resuming a schedule) is not supported")
        self.interpreter, self.optimizer, self.settings = interpreter, optimizer, bound
        self.configure(bound)
        for group in optimizer.groups:
            group.setdefault("initial_lr", group["lr"])
        self.base_lrs = [group["initial_lr"] for group in optimizer.groups]
        self.last_epoch = -1
        self.step_count = 0
        self.initial = True
        self.step(None)
        self.initial = False

    def configure(self, bound: dict[str, Any]) -> None:
        """The scheduler's own settings, checked as its __init__ checks them."""

    def type_name(self) -> str:
        return self.label

    def __repr__(self) -> str:
        return f"<torch.optim.lr_scheduler.{self.label} object at {address(self)}>"

    def rates(self) -> list[float]:
        return [group["lr"] for group in self.optimizer.groups]

    def chained(self) -> list[Any]:
        raise NotImplementedError

    def closed_form(self) -> list[Any] | None:
        return None

    def step(self, epoch: Any) -> None:
        self.step_count += 1
        if epoch is None:
            self.last_epoch += 1
            values = self.chained()
        else:
            self.last_epoch = epoch
            closed = self.closed_form()
            values = self.chained() if closed is None else closed
        for group, rate in zip(self.optimizer.groups, values, strict=True):
            group["lr"] = rate
        self.last_lr = self.rates()


class StepLR(Scheduler):
    label = "StepLR"
    names: ClassVar[list[str]] = ["step_size", "gamma"]
    defaults: ClassVar[dict[str, Any]] = {"gamma": 0.1}

    def chained(self) -> list[Any]:
        size, gamma = self.settings["step_size"], self.settings["gamma"]
        if self.last_epoch == 0 or self.last_epoch % size != 0:
            return self.rates()
        return [rate * gamma for rate in self.rates()]

    def closed_form(self) -> list[Any]:
        return [base * self.settings["gamma"] ** (self.last_epoch // self.settings["step_size"]) for base in self.base_lrs]


class MultiStepLR(Scheduler):
    label = "MultiStepLR"
    names: ClassVar[list[str]] = ["milestones", "gamma"]
    defaults: ClassVar[dict[str, Any]] = {"gamma": 0.1}

    def configure(self, bound: dict[str, Any]) -> None:
        self.milestones = Counter(self.interpreter.collect(bound["milestones"], self.interpreter.node or ast.Pass()))

    def chained(self) -> list[Any]:
        if self.last_epoch not in self.milestones:
            return self.rates()
        return [rate * self.settings["gamma"] ** self.milestones[self.last_epoch] for rate in self.rates()]

    def closed_form(self) -> list[Any]:
        marks = sorted(self.milestones.elements())
        return [base * self.settings["gamma"] ** bisect.bisect_right(marks, self.last_epoch) for base in self.base_lrs]


class ExponentialLR(Scheduler):
    label = "ExponentialLR"
    names: ClassVar[list[str]] = ["gamma"]

    def chained(self) -> list[Any]:
        if self.initial:
            return self.rates()
        return [rate * self.settings["gamma"] for rate in self.rates()]

    def closed_form(self) -> list[Any]:
        return [base * self.settings["gamma"] ** self.last_epoch for base in self.base_lrs]


class LambdaLR(Scheduler):
    label = "LambdaLR"
    names: ClassVar[list[str]] = ["lr_lambda"]

    def configure(self, bound: dict[str, Any]) -> None:
        given = bound["lr_lambda"]
        count = len(self.optimizer.groups)
        if isinstance(given, (list, tuple)):
            if len(given) != count:
                raise PythonError("ValueError", f"Expected {count} lr_lambdas, but got {len(given)}")
            self.lambdas = list(given)
        else:
            self.lambdas = [given] * count

    def chained(self) -> list[Any]:
        where = self.interpreter.call_node or self.interpreter.node or ast.Pass()
        return [base * self.interpreter.call(function, [self.last_epoch], {}, where)
                for function, base in zip(self.lambdas, self.base_lrs, strict=True)]


class CosineAnnealingLR(Scheduler):
    label = "CosineAnnealingLR"
    names: ClassVar[list[str]] = ["T_max", "eta_min"]
    defaults: ClassVar[dict[str, Any]] = {"eta_min": 0.0}

    def chained(self) -> list[Any]:
        period, low, epoch = self.settings["T_max"], self.settings["eta_min"], self.last_epoch
        if self.initial:
            return self.rates()
        if self.step_count == 1 and epoch > 0:
            return [low + (base - low) * (1 + math.cos(epoch * math.pi / period)) / 2 for base in self.base_lrs]
        if (epoch - 1 - period) % (2 * period) == 0:
            return [rate + (base - low) * (1 - math.cos(math.pi / period)) / 2
                    for base, rate in zip(self.base_lrs, self.rates(), strict=True)]
        return [(1 + math.cos(math.pi * epoch / period)) / (1 + math.cos(math.pi * (epoch - 1) / period)) * (rate - low) + low
                for rate in self.rates()]

    def closed_form(self) -> list[Any]:
        period, low = self.settings["T_max"], self.settings["eta_min"]
        return [low + (base - low) * (1 + math.cos(math.pi * self.last_epoch / period)) / 2 for base in self.base_lrs]


SCHEDULERS: dict[str, type[Scheduler]] = {kind.label: kind for kind in (StepLR, MultiStepLR, ExponentialLR, LambdaLR,
                                                                         CosineAnnealingLR)}


def scheduler_class(name: str) -> NativeClass | None:
    kind = SCHEDULERS.get(name)
    return None if kind is None else native_class("torch.optim.lr_scheduler", name, kind)


def attribute(scheduler: Scheduler, name: str) -> tuple[bool, Any]:
    if name in ("step", "get_last_lr"):
        return True, NativeMethod(scheduler, name)
    if name in ("last_epoch", "base_lrs", "optimizer"):
        return True, getattr(scheduler, name)
    if name in scheduler.settings and name != "optimizer":
        return True, scheduler.settings[name]
    return False, None


def call_method(interpreter: Interpreter, scheduler: Scheduler, name: str, args: list[Any], kwargs: dict[str, Any],
                node: ast.AST) -> Any:
    if name == "get_last_lr":
        bind_by_name("get_last_lr", [], args, kwargs)
        return list(scheduler.last_lr)
    epoch = bind_by_name("step", ["epoch"], args, kwargs).get("epoch")
    scheduler.step(epoch)
    return None

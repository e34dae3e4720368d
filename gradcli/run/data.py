"""torch.utils.data under `gradcli run`: TensorDataset and the DataLoader that batches it.

What PyTorch 2.13 does (read in torch/utils/data; nothing here is its code):

- Each iteration of a DataLoader (each `iter(loader)`, so each `for` over it) first draws a 64-bit
  base seed for its workers from torch's generator, shuffled or not, workers or not.
- shuffle=True samples with a RandomSampler: at the first batch it draws another 64-bit seed from
  torch's generator, seeds a fresh generator with it and takes `randperm(n)` of that generator.
- The default collate stacks the samples' tensors: a TensorDataset's batch is a list, one stacked
  tensor per tensor of the dataset (a tuple of samples collates to a list).
- A dataset of the file's own class (`class ToyDataset(Dataset)` with __getitem__ and __len__) is read one
  sample at a time, `dataset[i]` with i a Python int in the sampler's order, and its samples collated as
  default_collate does: tensors stacked (torch.stack, recorded as any stack is), Python ints, floats and bools
  made a tensor of int64, float64 or bool, tuples and lists item by item (a tuple to a list), dicts key by key.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from gradcli.run import random
from gradcli.run.python import BoundMethod, Instance, PythonError, UserFunction, address, bind_by_name
from gradcli.run.tensor import Tensor, TorchError

if TYPE_CHECKING:
    from gradcli.run.interpreter import Interpreter

_LOADER_NAMES = ["dataset", "batch_size", "shuffle", "sampler", "batch_sampler", "num_workers", "collate_fn",
                 "pin_memory", "drop_last", "timeout", "worker_init_fn", "multiprocessing_context", "generator",
                 "prefetch_factor", "persistent_workers", "pin_memory_device", "in_order"]
_LOADER_DEFAULTS: dict[str, Any] = {"batch_size": 1, "shuffle": None, "sampler": None, "batch_sampler": None,
                                    "num_workers": 0, "collate_fn": None, "pin_memory": False, "drop_last": False,
                                    "timeout": 0, "worker_init_fn": None, "multiprocessing_context": None,
                                    "generator": None, "prefetch_factor": None, "persistent_workers": False,
                                    "pin_memory_device": "", "in_order": True}
_NOT_YET = ("sampler", "batch_sampler", "collate_fn", "worker_init_fn", "generator")


class TensorDataset:
    """TensorDataset(*tensors): sample i is the tuple of each tensor's row i."""

    def __init__(self, tensors: tuple[Tensor, ...]) -> None:
        self.tensors = tensors

    def type_name(self) -> str:
        return "TensorDataset"

    def __len__(self) -> int:
        return int(self.tensors[0].data.shape[0])

    def __repr__(self) -> str:
        return f"<torch.utils.data.dataset.TensorDataset object at {address(self)}>"


class DataLoader:
    def __init__(self, interpreter: Interpreter, dataset: TensorDataset | Tensor | Instance, batch_size: int, shuffle: bool,
                 drop_last: bool, node: ast.AST) -> None:
        self.dataset, self.batch_size, self.shuffle, self.drop_last = dataset, batch_size, shuffle, drop_last
        self.interpreter, self.node = interpreter, node

    def type_name(self) -> str:
        return "DataLoader"

    def size(self) -> int:
        """len(dataset): a file's dataset answers by its __len__."""
        if isinstance(self.dataset, TensorDataset):
            return len(self.dataset)
        if isinstance(self.dataset, Tensor):  # (a tensor as the dataset: its rows are the samples)
            if not self.dataset.data.ndim:
                raise PythonError("TypeError", "len() of a 0-d tensor")
            return int(self.dataset.data.shape[0])
        return int(self.interpreter.call(_method(self.dataset, "__len__"), [], {}, self.node))

    def __len__(self) -> int:
        n = self.size()
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)

    def __repr__(self) -> str:
        return f"<torch.utils.data.dataloader.DataLoader object at {address(self)}>"

    def batches(self, interpreter: Interpreter) -> Iterator[list[Tensor]]:
        """One pass (one `iter(loader)`): its base seed drawn now, the shuffle's at the first batch."""
        interpreter.generator.words64(1)  # the workers' base seed, drawn whether or not there are workers
        return self._batches(interpreter)

    def _batches(self, interpreter: Interpreter) -> Iterator[Any]:
        n = self.size()
        if self.shuffle:
            seed = int(interpreter.generator.words64(1)[0]) % 2**63
            order = random.Generator(seed).randperm(n)
        else:
            order = np.arange(n)
        stop = n - n % self.batch_size if self.drop_last else n
        for start in range(0, stop, self.batch_size):
            rows = order[start:start + self.batch_size]
            if isinstance(self.dataset, TensorDataset):
                yield [Tensor(interpreter.graph, t.data[rows]) for t in self.dataset.tensors]
            elif isinstance(self.dataset, Tensor):
                yield _collate(interpreter, [interpreter.index(self.dataset, int(row), self.node) for row in rows],
                               self.node)
            else:
                getitem = _method(self.dataset, "__getitem__")
                yield _collate(interpreter, [interpreter.call(getitem, [int(row)], {}, self.node) for row in rows],
                               self.node)


def _method(dataset: Instance, name: str) -> Any:
    found, method = dataset.cls.lookup(name)
    if not found:  # (checked when the DataLoader was made)
        raise PythonError("AttributeError", f"'{dataset.cls.name}' object has no attribute '{name}'")
    return BoundMethod(method, dataset) if isinstance(method, UserFunction) else method


def _collate(interpreter: Interpreter, samples: list[Any], node: ast.AST) -> Any:
    """torch.utils.data's default_collate of one batch of samples."""
    first = samples[0]
    if isinstance(first, Tensor):
        return interpreter.call_op("torch.stack", [samples], {"dim": 0}, node)
    if isinstance(first, (bool, int, float)) and all(isinstance(sample, (bool, int, float)) for sample in samples):
        kind = np.bool_ if isinstance(first, bool) else np.int64 if isinstance(first, int) else np.float64
        return Tensor(interpreter.graph, np.array(samples, dtype=kind))
    if isinstance(first, str):
        return samples
    if isinstance(first, dict):
        return {key: _collate(interpreter, [sample[key] for sample in samples], node) for key in first}
    if isinstance(first, (tuple, list)):
        if any(len(sample) != len(first) for sample in samples):
            raise TorchError("RuntimeError", "each element in list of batch should be of equal size")
        return [_collate(interpreter, list(column), node) for column in zip(*samples)]
    raise interpreter.refuse(node, f"a DataLoader over samples of type {type(first).__name__} is not supported",
                             "a dataset's samples as tensors, numbers, or tuples, lists and dicts of them")


def call(interpreter: Interpreter, name: str, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
    """torch.utils.data.TensorDataset(...) and DataLoader(...); the rest is gradcli's refusal."""
    if name == "TensorDataset":
        if kwargs:
            raise PythonError("TypeError", f"TensorDataset.__init__() got an unexpected keyword argument "
                                           f"'{next(iter(kwargs))}'")
        if not args or not all(isinstance(t, Tensor) for t in args):
            raise interpreter.refuse(node, "TensorDataset of anything but tensors is not supported")
        if any(not t.data.ndim for t in args):
            raise TorchError("IndexError", "dimension specified as 0 but tensor has no dimensions")
        if any(t.data.shape[0] != args[0].data.shape[0] for t in args):
            raise PythonError("AssertionError", "Size mismatch between tensors")
        if interpreter.graph.grad_enabled and any(t.requires_grad for t in args):
            raise interpreter.refuse(node, "a TensorDataset of tensors that require grad is not supported",
                                     "its batches would be StackBackward0 nodes; give it t.detach()")
        return TensorDataset(tuple(args))
    if name == "DataLoader":
        if len(args) > 13:
            raise PythonError("TypeError", f"DataLoader.__init__() takes from 2 to 14 positional arguments but "
                                           f"{len(args) + 1} were given")
        bound = {**_LOADER_DEFAULTS, **bind_by_name("DataLoader.__init__", _LOADER_NAMES, args, kwargs)}
        if "dataset" not in bound:
            raise PythonError("TypeError", "DataLoader.__init__() missing 1 required positional argument: 'dataset'")
        dataset = bound["dataset"]
        if isinstance(dataset, Instance):
            missing = [name for name in ("__getitem__", "__len__") if not dataset.cls.lookup(name)[0]]
            if missing:
                raise interpreter.refuse(node, f"a DataLoader over a dataset without {missing[0]} is not supported",
                                         "a map-style dataset: a class of the file with __getitem__ and __len__")
        elif not isinstance(dataset, (TensorDataset, Tensor)):
            raise interpreter.refuse(node, "a DataLoader over anything but a tensor, a TensorDataset or a dataset of "
                                           "the file's class is not supported")
        given = [key for key in _NOT_YET if bound[key] is not None]
        if given:
            raise interpreter.refuse(node, f"DataLoader(..., {given[0]}=...) is not supported",
                                     "gradcli run takes dataset, batch_size, shuffle, drop_last and num_workers")
        size = bound["batch_size"]
        if size is None or isinstance(size, bool) or not isinstance(size, int):
            raise interpreter.refuse(node, "DataLoader's batch_size other than an int is not supported")
        if size <= 0:
            raise PythonError("ValueError", f"batch_size should be a positive integer value, but got batch_size={size}")
        workers = bound["num_workers"]
        if not isinstance(workers, int) or workers < 0:
            raise PythonError("ValueError", "num_workers option should be non-negative; use num_workers=0 to "
                                            "disable multiprocessing.")
        return DataLoader(interpreter, dataset, size, bool(bound["shuffle"]), bool(bound["drop_last"]), node)
    raise interpreter.refuse(node, f"'torch.utils.data.{name}' is not supported",
                             "gradcli run takes TensorDataset and DataLoader")


def index(interpreter: Interpreter, dataset: TensorDataset, key: Any, node: ast.AST) -> tuple[Any, ...]:
    """dataset[i]: the tuple of each tensor's t[i], as TensorDataset.__getitem__ gives it."""
    return tuple(interpreter.index(t, key, node) for t in dataset.tensors)

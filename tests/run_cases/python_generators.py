# Generator functions as Python runs them: d2l's data_iter (random.shuffle at the first item, a batch per yield,
# left after one batch by `break`), yield inside for/while/if/with, `yield from`, `return` ending it, next() and
# StopIteration, the body running only as it is iterated (its prints interleaved with the loop's), two generators
# side by side, a generator's repr, and an error raised inside one.
import random
import torch
random.seed(0)
torch.manual_seed(0)

features = torch.randn(10, 2)
labels = torch.arange(10.0).reshape(-1, 1)


def data_iter(batch_size, features, labels):
    num_examples = len(features)
    indices = list(range(num_examples))
    # The examples are read at random, in no particular order
    random.shuffle(indices)
    for i in range(0, num_examples, batch_size):
        batch_indices = torch.tensor(
            indices[i: min(i + batch_size, num_examples)])
        yield features[batch_indices], labels[batch_indices]


for X, y in data_iter(4, features, labels):
    print(X, '\n', y)
    break
print([y.flatten().tolist() for _, y in data_iter(3, features, labels)])


def countdown(n):
    print("start", n)
    while True:
        if n == 0:
            return
        yield n
        n -= 1
    print("never")


gen = countdown(3)
print(type(gen) is not None, str(gen).startswith("<generator object countdown at 0x"))
for k in gen:
    print("got", k)
print(next(countdown(1)), next(iter(countdown(2))))
it = countdown(1)
print(next(it))
try:
    next(it)
except StopIteration:
    print("stopped")
print(next(countdown(0), "default"))


def chain(*parts):
    for part in parts:
        yield from part
    yield "end"


print(list(chain([1, 2], (3,), countdown(2))))


def pairs():
    a, b = countdown(2), countdown(3)
    for x, y in zip(a, b):
        yield x * y


print(list(pairs()), sum(x for x in chain([1, 2], [3]) if x != "end"))

w = torch.ones(2, requires_grad=True)


def steps():
    with torch.no_grad():
        yield (w * 2).requires_grad
    yield (w * 2).requires_grad


print(list(steps()))


def broken():
    yield 1
    yield [][0]


try:
    for item in broken():
        print(item)
except IndexError as e:
    print(repr(e))

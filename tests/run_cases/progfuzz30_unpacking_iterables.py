# tuple unpacking of what iterates (zip(*pairs), a dict's items, a generator, a map) and t.is_inference()
# (progfuzz30, --family python: gradcli raised "cannot unpack non-iterable zip object", refused is_inference)
import torch

x = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
pairs = list(zip(range(3), x.tolist()))
idx, vals = zip(*pairs)
print(idx, vals)
(k1, v1), (k2, v2) = {"a": 1, "b": 2}.items()
print(k1, v1, k2, v2)
a, b, c = (t * 2 for t in x)
print(a, c)
p, q = map(float, ["1.5", "2"])
print(p + q)
first, *rest = zip("ab", "cd")
print(first, rest)
try:
    m, n = 5
except TypeError as e:
    print(e)
try:
    m, n = zip([1, 2, 3])
except ValueError as e:
    print(e)
with torch.inference_mode():
    t = x * 2
print(t.is_inference(), x.is_inference(), t.requires_grad)

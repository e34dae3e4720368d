# A tensor beside NumPy values, as PyTorch 2.13 with NumPy 2 takes them: an array on the tensor's right made a
# tensor (its dtype kept: float64 promotes, a 0-d array does not), NumPy numbers on its right taken as numbers, an
# integer tensor with an integer array, PyTorch's error for an array beside a tensor that requires grad, and an
# array on the left (NumPy declines: Python's TypeError).
import numpy as np
import torch
t = torch.tensor([1.0, 2.0])
a = np.array([10.0, 20.0])
print(t * a, t + a.astype(np.float32), t - np.array(3.0), t / np.float32(4), t * np.int64(2), t + np.float64(3))
w = torch.tensor([1.0, 2.0], requires_grad=True)
y = w / np.float32(4) + w * np.int64(2)
y.sum().backward()
print(y, w.grad)
print(torch.tensor([1, 2]) + np.array([1, 2]), torch.tensor([1, 2]) * np.int64(3))
try:
    w * a
except RuntimeError as e:
    print(e)
try:
    a * t
except TypeError as e:
    print(type(e).__name__)

# a range as an index (y_hat[range(n), y], as d2l writes the cross-entropy), read and written; an empty list indexes as int64
import torch
x = torch.arange(12.).reshape(3, 4)
print(x[range(3), [0, 1, 2]])
print(x[range(2)])
print(x[range(0)])
print(x[[]])
print(x[range(1, 3), 1:])
y = torch.zeros(3)
y[range(2)] = 5
print(y)

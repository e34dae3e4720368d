# torch.from_numpy and torch.tensor of a NumPy array of int32, int16, int8 or uint8 keep its dtype (rasbt's
# machine-learning-book, ch12: torch.from_numpy(np.array([4, 5, 6], dtype=np.int32)) prints dtype=torch.int32), and a
# for over a TensorDataset goes through its samples (Python's sequence protocol: __getitem__ until IndexError).
import numpy as np
import torch
from torch.utils.data import TensorDataset

for kind in (np.int32, np.int16, np.int8, np.uint8, np.int64):
    a = np.array([4, 5, 6], dtype=kind)
    t = torch.from_numpy(a)
    print(t, t.dtype, torch.tensor(a).dtype, torch.as_tensor(a).dtype)
b = np.array([1, 2, 3], dtype=np.int32)
t = torch.from_numpy(b)
b[0] = 7  # (the same memory)
print(t, t * 2, (t + 1.5).dtype, t.sum(), t.numpy().dtype)
t_x = torch.arange(12, dtype=torch.float32).reshape(4, 3)
t_y = torch.arange(4)
for example in TensorDataset(t_x, t_y):
    print('  x: ', example[0], '  y: ', example[1])
print([y for _, y in TensorDataset(t_x, t_y)])
print(list(TensorDataset(t_y)))
# NumPy's dtype named by a string (rasbt's ch12: np.arange(10, dtype='float32'))
X_train = np.arange(10, dtype='float32').reshape((10, 1))
y_train = np.array([1.0, 1.3, 3.1], dtype='float32')
print(X_train.dtype, y_train.dtype, np.zeros(2, dtype='int32').dtype, X_train.astype('float64').dtype)
print(torch.from_numpy(X_train[:2]), torch.from_numpy(y_train).float())
print(np.linspace(0, 9, num=4, dtype='float32').reshape(-1, 1).dtype, np.ones(2, dtype='int8') + 1)

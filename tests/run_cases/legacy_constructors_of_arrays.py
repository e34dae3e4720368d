# The legacy constructors of a NumPy array (udacity's torch.Tensor(data).unsqueeze(0)): the array's memory where it has the
# constructor's dtype, else a copy cast to it; of a tensor of another dtype, PyTorch's TypeError.
import torch
import numpy as np
a = np.linspace(0, 1, 3)
print(torch.Tensor(a), torch.FloatTensor(a), torch.DoubleTensor(a))
print(torch.LongTensor(np.array([1, 2])), torch.LongTensor(a), torch.LongTensor(np.array([1.7, -1.7])))
print(torch.Tensor(np.array([1, 2])), torch.Tensor(np.array(2.5)), torch.Tensor(np.array([True, False])))
print(torch.Tensor(np.zeros((0, 3))).shape, torch.ByteTensor(np.array([300, -1])))
b = np.array([1., 2.], dtype=np.float32)
t = torch.Tensor(b)
t[0] = 9
print(b)
c = np.array([1., 2.])
u = torch.Tensor(c)
u[0] = 9
print(c, u)
print(torch.Tensor(np.array([[1.5], [2]], dtype=np.float32)).unsqueeze(0).shape)
for make in [lambda: torch.FloatTensor(torch.tensor([1, 2])), lambda: torch.DoubleTensor(torch.tensor([1., 2.]))]:
    try:
        make()
    except TypeError as e:
        print(e)

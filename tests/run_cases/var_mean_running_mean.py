# var_mean and std_mean give the mean of PyTorch's Welford pass: NaN where an infinity comes before finite values
# (sum / n gives inf), and no overflow of huge values (1e308, 1e308, 1 -> 6.7e307, where the sum overflows).
import torch
inf = float('inf')
for v in ([inf, 1., 2.], [1., 2., inf], [1., inf, 2.], [inf, -inf, 1.], [1e308, 1e308, 1.], [inf, inf, 1.]):
    x = torch.tensor(v, dtype=torch.float64)
    print(v, torch.var_mean(x), torch.std_mean(x)[1])
x = torch.tensor([[inf, 1., 2.], [1, 2, 3]], dtype=torch.float64)
print(torch.var_mean(x, 0), torch.var_mean(x, 1, keepdim=True), torch.var_mean(x))
y = torch.tensor([[1e308, 1.], [1e308, 2.]], dtype=torch.float64)
print(torch.var_mean(y, 0)[1], torch.var_mean(y)[1])
f = torch.tensor([3e38, 3e38, 1.], dtype=torch.float32)
print(torch.var_mean(f)[1])

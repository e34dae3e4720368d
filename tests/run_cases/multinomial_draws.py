# torch.multinomial as PyTorch's CPU kernel draws it: one sample or none replaced (exponentials, the largest
# probs / q), several replaced (a float64 uniform each, searched in the row's cumulative sums), with its errors.
import torch

torch.manual_seed(0)
p = torch.tensor([0.1, 0.2, 0.3, 0.4])
print(torch.multinomial(p, 1), torch.multinomial(p, 2), torch.multinomial(p, 4), torch.multinomial(p, 10, replacement=True))
w = torch.tensor([[1., 2., 3.], [0., 5., 1.]])
print(torch.multinomial(w, 2), torch.multinomial(w, 6, True), w.multinomial(1), torch.multinomial(w, num_samples=3, replacement=False))
probs = torch.softmax(torch.randn(27), dim=0)
for _ in range(5):
    ix = torch.multinomial(probs, num_samples=1, replacement=True).item()
    print(ix, end=' ')
print()
draws = torch.multinomial(torch.ones(6) / 6, 1000, True)
print([(draws == k).sum().item() for k in range(6)], draws.dtype, draws.shape)
print(torch.multinomial(torch.tensor([0.5, 0.5], dtype=torch.float64), 20, True))
for seed in range(40):
    torch.manual_seed(seed)
    q = torch.rand(3, 7) ** 3
    print(seed, torch.multinomial(q, 3).tolist(), torch.multinomial(q, 5, True).tolist(),
          torch.multinomial(q[0], 1).item(), torch.multinomial(q.double(), 2, True).tolist())
for bad in [(p, 5, False), (p, 0, False), (torch.tensor([-1., 2.]), 1, False), (torch.zeros(3), 1, False),
            (torch.tensor([1, 2]), 1, False), (torch.ones(2, 2, 2), 1, True)]:
    try:
        torch.multinomial(bad[0], bad[1], bad[2])
    except RuntimeError as e:
        print(type(e).__name__, e)

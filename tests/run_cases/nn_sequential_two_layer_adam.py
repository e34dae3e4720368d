# A two-layer net with nn.Sequential, after PyTorch's "Learning PyTorch with Examples" (the nn and
# optim versions: Linear, ReLU, MSELoss(reduction='sum'), Adam), smaller; the losses printed to 3
# significant digits, since gradcli's float32 sums in matmul's backward can differ from PyTorch's
# in the last bits.
import torch

torch.manual_seed(0)
N, D_in, H, D_out = 16, 8, 12, 2
x = torch.randn(N, D_in)
y = torch.randn(N, D_out)

model = torch.nn.Sequential(
    torch.nn.Linear(D_in, H),
    torch.nn.ReLU(),
    torch.nn.Linear(H, D_out),
)
print(model)
print(model[0].bias)
loss_fn = torch.nn.MSELoss(reduction='sum')

learning_rate = 1e-2
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)
for t in range(200):
    y_pred = model(x)
    loss = loss_fn(y_pred, y)
    if t % 50 == 49:
        print(t, f"{loss.item():.3g}")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(loss.grad_fn)
print([p.shape for p in model.parameters()])

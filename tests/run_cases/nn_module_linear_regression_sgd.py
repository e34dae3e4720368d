# A tiny nn.Module subclass trained with SGD, as the PyTorch beginner tutorials write it (a linear
# model, MSELoss, zero_grad/backward/step). Losses are printed to 4 decimals: gradcli's float32 sums
# in matmul's backward can differ from PyTorch's in the last bits.
import torch
import torch.nn as nn

torch.manual_seed(42)


class LinearRegression(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        return self.linear(x)


x = torch.linspace(0, 1, 10).reshape(10, 1)
y = 3 * x + 2

model = LinearRegression(1, 1)
print(model)
print(model.state_dict())
criterion = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

for epoch in range(100):
    optimizer.zero_grad()
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
    if (epoch + 1) % 20 == 0:
        print(f"epoch {epoch + 1}: loss {loss.item():.4f}")

for name, param in model.named_parameters():
    print(name, param.shape, round(param.item(), 3))
print(isinstance(model, nn.Module), model.linear.weight.grad is None)
optimizer.zero_grad()
print(model.linear.weight.grad)

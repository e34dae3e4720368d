# optimizer.state_dict() and load_state_dict as checkpointing tutorials print them: SGD with and without momentum,
# Adam, AdamW, Adagrad (its state made in the constructor), RMSprop, param groups as dicts (the file's keys first),
# before and after steps; a state loaded into a fresh optimizer that then steps as the first would.
import torch
w = torch.nn.Parameter(torch.ones(2))
b = torch.nn.Parameter(torch.zeros(1))
for opt in [torch.optim.SGD([w, b], lr=0.1), torch.optim.SGD([w], lr=0.1, momentum=0.9), torch.optim.Adam([w, b], lr=0.01), torch.optim.AdamW([w]), torch.optim.Adagrad([w]), torch.optim.RMSprop([w]), torch.optim.RMSprop([w], momentum=0.5), torch.optim.SGD([{"params": [b], "lr": 1.0}, {"momentum": 0.5, "params": w}], lr=0.1)]:
    print(opt.state_dict())
    (w.sum() * 2 + b.sum()).backward()
    opt.step()
    opt.step()
    print(opt.state_dict())
    opt.zero_grad()
print(torch.optim.AdamW([w]))
torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
opt = torch.optim.Adam(model.parameters(), lr=0.1)
x = torch.randn(4, 3)
for _ in range(3):
    opt.zero_grad()
    model(x).pow(2).mean().backward()
    opt.step()
saved = opt.state_dict()
fresh = torch.optim.Adam(model.parameters(), lr=0.5)
fresh.load_state_dict(saved)
print(fresh)
opt.zero_grad()
model(x).pow(2).mean().backward()
fresh.step()
print(fresh.state_dict()["state"][1])

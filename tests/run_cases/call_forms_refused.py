import torch
# Calls PyTorch's argument parser refuses, which gradcli answered: a keyword-only argument given by position
# (addmm's beta, addcmul's value, round's decimals, aminmax's dim, cov's correction, sort's stable, rsub's alpha),
# an int where a bool goes (std(m, 1, 0): unbiased=0). Each raises PyTorch's TypeError; the keyword forms answer.
# (Where PyTorch has several overloads its words list them all: the type alone is printed for those.)
a = torch.tensor([[1.0, 2.0, 4.0], [3.0, 3.0, 6.0]], dtype=torch.float64, requires_grad=True)
b = torch.tensor([[1.0, 0.5], [2.0, -1.0], [0.0, 1.0]], dtype=torch.float64)
c = torch.tensor([[0.5, 1.0], [1.5, 2.0]], dtype=torch.float64)
calls = [
    (lambda: torch.addmm(c, a, b, 0.5), False),
    (lambda: torch.addmm(c, a, b, beta=0.5, alpha=2.0), True),
    (lambda: c.addmm(a, b, 0.5), True),
    (lambda: torch.addcmul(a, a, a, 2.0), True),
    (lambda: torch.addcmul(a, a, a, value=2.0), True),
    (lambda: torch.addcdiv(a, a, a, 2.0), True),
    (lambda: torch.round(a, 1), False),
    (lambda: torch.round(a * 1.234, decimals=1), True),
    (lambda: a.round(1), False),
    (lambda: torch.aminmax(a, 0), True),
    (lambda: torch.aminmax(a, dim=0), True),
    (lambda: a.aminmax(0), True),
    (lambda: torch.cov(a, 0), True),
    (lambda: torch.cov(a, correction=0), True),
    (lambda: torch.sort(a, 0, True, False), False),
    (lambda: torch.argsort(a, 0, True, False), False),
    (lambda: torch.rsub(a, a * 3, 2.0), False),
    (lambda: torch.rsub(a, a * 3, alpha=2.0), True),
    (lambda: torch.std(a, 1, 0), False),
    (lambda: torch.var(a, 0, True, 1), False),
    (lambda: a.std(0, True, 1), False),
    (lambda: torch.std_mean(a, 0, 0), False),
    (lambda: torch.var_mean(a, 1, True, True), True),
    (lambda: torch.sum(a, 0, 1), True),
    (lambda: a.sum(0, 1), True),
    (lambda: torch.cumsum(a, 0, 1), True),
    (lambda: torch.topk(a, 1, 0, 1), True),
]
for call, words in calls:
    try:
        out = call()
        print(out)
    except TypeError as error:
        print("TypeError:", str(error) if words else "")

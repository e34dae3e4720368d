# torch.distributions' Normal, Bernoulli, Categorical and Multinomial: samples drawn from torch's generator as
# PyTorch draws them, log_prob/entropy/rsample with PyTorch's graphs, lazy probs/logits in repr, and the checks of
# validate_args with PyTorch's ValueError; the REINFORCE pattern of PyTorch's docs.
import torch
import torch.nn as nn
from torch.distributions import Normal, Categorical, Bernoulli
from torch.distributions import multinomial
from torch.distributions.normal import Normal as N2
import torch.distributions as D

torch.manual_seed(0)
mu = torch.tensor([0.5, -1.0], requires_grad=True)
sigma = torch.tensor([1.0, 2.0], requires_grad=True)
d = Normal(mu, sigma)
print(d, d.loc, d.scale, d.mean, d.stddev, d.variance, d.batch_shape, d.event_shape)
s = d.sample()
print(s, s.requires_grad, d.sample((3,)), d.sample([20]).shape)
r = d.rsample()
print(r, r.grad_fn, r.grad_fn.next_functions)
lp = d.log_prob(torch.tensor([0.0, 1.0]))
print(lp, lp.grad_fn)
lp.sum().backward()
print(mu.grad, sigma.grad)
print(d.entropy(), d.rsample((2,)))
n0 = N2(0, 1)
print(n0, n0.sample(), n0.sample((2,)), n0.log_prob(torch.tensor(0.5)), n0.loc, n0.sample((17,)))
wide = D.Normal(torch.zeros(3), 1.0)
print(wide, wide.sample(), wide.scale)
c = Categorical(probs=torch.tensor([0.2, 0.3, 0.5]))
print(c, c.probs, c.logits, c.sample(), c.sample((4,)), c.log_prob(torch.tensor(2)), c.entropy())
c2 = Categorical(logits=torch.tensor([[1.0, 2.0], [0.0, 0.0]], requires_grad=True))
x = c2.sample()
print(x, c2.log_prob(x), c2.probs, c2)
b = Bernoulli(torch.tensor([0.3, 0.9]))
print(b, b.sample(), b.sample((2,)), b.log_prob(torch.tensor([1., 0.])), b.entropy(), b.probs, b.logits, b.mean)
b2 = Bernoulli(logits=torch.tensor(0.3))
print(b2.sample(), b2.probs, b2)
m = multinomial.Multinomial(3, torch.tensor([0.2, 0.8]))
print(m, m.sample(), m.log_prob(torch.tensor([1., 2.])), m.sample((2,)), m.probs)
policy = nn.Linear(4, 2)
state = torch.randn(4)
probs = torch.softmax(policy(state), dim=-1)
dist = Categorical(probs)
action = dist.sample()
loss = -dist.log_prob(action) * 1.5
loss.backward()
print(action, loss, policy.weight.grad)
for bad in [lambda: Normal(0., -1.), lambda: Normal(torch.tensor([0., float("nan")]), 1.), lambda: Bernoulli(1.5),
            lambda: Categorical(), lambda: Categorical(torch.tensor(0.5)), lambda: c.log_prob(torch.tensor(3)),
            lambda: b.log_prob(torch.tensor([0.5, 1.])), lambda: d.log_prob(torch.zeros(3)),
            lambda: Bernoulli(probs=0.2, logits=0.1)]:
    try:
        bad()
    except ValueError as e:
        print("ValueError:", e)

# d2l.ai (Dive into Deep Learning, v0.17.6), chapter_appendix-mathematics-for-deep-learning/information-theory.md:
# its PyTorch cells in order, as written, except that each cell's last bare expression (which the notebook shows)
# is printed (the chapter seeds its own random numbers: torch.manual_seed(1)).
# Source: https://github.com/d2l-ai/d2l-en/blob/v0.17.6/chapter_appendix-mathematics-for-deep-learning/information-theory.md
import torch
from torch.nn import NLLLoss

def nansum(x):
    # Define nansum, as pytorch doesn't offer it inbuilt.
    return x[~torch.isnan(x)].sum()

def self_information(p):
    return -torch.log2(torch.tensor(p)).item()

print(self_information(1 / 64))

def entropy(p):
    entropy = - p * torch.log2(p)
    # Operator `nansum` will sum up the non-nan number
    out = nansum(entropy)
    return out

print(entropy(torch.tensor([0.1, 0.5, 0.1, 0.3])))

def joint_entropy(p_xy):
    joint_ent = -p_xy * torch.log2(p_xy)
    # Operator `nansum` will sum up the non-nan number
    out = nansum(joint_ent)
    return out

print(joint_entropy(torch.tensor([[0.1, 0.5], [0.1, 0.3]])))

def conditional_entropy(p_xy, p_x):
    p_y_given_x = p_xy/p_x
    cond_ent = -p_xy * torch.log2(p_y_given_x)
    # Operator `nansum` will sum up the non-nan number
    out = nansum(cond_ent)
    return out

print(conditional_entropy(torch.tensor([[0.1, 0.5], [0.2, 0.3]]),
                          torch.tensor([0.2, 0.8])))

def mutual_information(p_xy, p_x, p_y):
    p = p_xy / (p_x * p_y)
    mutual = p_xy * torch.log2(p)
    # Operator `nansum` will sum up the non-nan number
    out = nansum(mutual)
    return out

print(mutual_information(torch.tensor([[0.1, 0.5], [0.1, 0.3]]),
                         torch.tensor([0.2, 0.8]), torch.tensor([[0.75, 0.25]])))

def kl_divergence(p, q):
    kl = p * torch.log2(p / q)
    out = nansum(kl)
    return out.abs().item()

torch.manual_seed(1)

tensor_len = 10000
p = torch.normal(0, 1, (tensor_len, ))
q1 = torch.normal(-1, 1, (tensor_len, ))
q2 = torch.normal(1, 1, (tensor_len, ))

p = torch.sort(p)[0]
q1 = torch.sort(q1)[0]
q2 = torch.sort(q2)[0]

kl_pq1 = kl_divergence(p, q1)
kl_pq2 = kl_divergence(p, q2)
similar_percentage = abs(kl_pq1 - kl_pq2) / ((kl_pq1 + kl_pq2) / 2) * 100

print((kl_pq1, kl_pq2, similar_percentage))

kl_q2p = kl_divergence(q2, p)
differ_percentage = abs(kl_q2p - kl_pq2) / ((kl_q2p + kl_pq2) / 2) * 100

print((kl_q2p, differ_percentage))

def cross_entropy(y_hat, y):
    ce = -torch.log(y_hat[range(len(y_hat)), y])
    return ce.mean()

labels = torch.tensor([0, 2])
preds = torch.tensor([[0.3, 0.6, 0.1], [0.2, 0.3, 0.5]])

print(cross_entropy(preds, labels))

# Implementation of cross-entropy loss in PyTorch combines `nn.LogSoftmax()`
# and `nn.NLLLoss()`
nll_loss = NLLLoss()
loss = nll_loss(torch.log(preds), labels)
print(loss)

import torch
import torch.nn.functional as F
print(F.margin_ranking_loss(torch.tensor([1., 2.]), torch.tensor([[1., 0.], [2., 1.]]), torch.tensor([1., -1.])))

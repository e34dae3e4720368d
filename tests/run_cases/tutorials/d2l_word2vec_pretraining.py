# d2l.ai (Dive into Deep Learning, v0.17.6), chapter_natural-language-processing-pretraining/word2vec-pretraining.md:
# its PyTorch cells that need no dataset, in order, as written (the embedding layer, the skip-gram forward and the
# masked binary cross-entropy loss with its check by hand), except that each cell's last bare expression (which the
# notebook shows) is printed, d2l.tensor is torch.tensor (as d2l/torch.py defines it), and torch.manual_seed(0) is
# added after the imports (the embedding's weights are drawn unseeded); the cells that load the PTB dataset (a
# download) and train on it (load_data_ptb, the network over its vocabulary, train and get_similar_tokens) are cut.
# Source: https://github.com/d2l-ai/d2l-en/blob/v0.17.6/chapter_natural-language-processing-pretraining/word2vec-pretraining.md
import math
import torch
from torch import nn
torch.manual_seed(0)

embed = nn.Embedding(num_embeddings=20, embedding_dim=4)
print(f'Parameter embedding_weight ({embed.weight.shape}, '
      f'dtype={embed.weight.dtype})')

x = torch.tensor([[1, 2, 3], [4, 5, 6]])
print(embed(x))

def skip_gram(center, contexts_and_negatives, embed_v, embed_u):
    v = embed_v(center)
    u = embed_u(contexts_and_negatives)
    pred = torch.bmm(v, u.permute(0, 2, 1))
    return pred

print(skip_gram(torch.ones((2, 1), dtype=torch.long),
          torch.ones((2, 4), dtype=torch.long), embed, embed).shape)

class SigmoidBCELoss(nn.Module):
    # Binary cross-entropy loss with masking
    def __init__(self):
        super().__init__()

    def forward(self, inputs, target, mask=None):
        out = nn.functional.binary_cross_entropy_with_logits(
            inputs, target, weight=mask, reduction="none")
        return out.mean(dim=1)

loss = SigmoidBCELoss()

pred = torch.tensor([[1.1, -2.2, 3.3, -4.4]] * 2)
label = torch.tensor([[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]])
mask = torch.tensor([[1, 1, 1, 1], [1, 1, 0, 0]])
print(loss(pred, label, mask) * mask.shape[1] / mask.sum(axis=1))

def sigmd(x):
    return -math.log(1 / (1 + math.exp(-x)))

print(f'{(sigmd(1.1) + sigmd(2.2) + sigmd(-3.3) + sigmd(4.4)) / 4:.4f}')
print(f'{(sigmd(-1.1) + sigmd(-2.2)) / 2:.4f}')

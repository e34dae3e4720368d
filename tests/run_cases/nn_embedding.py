# nn.Embedding: its weight drawn N(0, 1) from torch's generator (under 16 elements and from 16 on), padding_idx
# (negative too: counted from the end, its row zeroed, no gradient), its repr, a lookup's EmbeddingBackward0 and
# the weight's gradient summed over repeated indices, a training step with SGD.
import torch
import torch.nn as nn
torch.manual_seed(1)
word_to_ix = {"hello": 0, "world": 1}
embeds = nn.Embedding(2, 5)
lookup_tensor = torch.tensor([word_to_ix["hello"]], dtype=torch.long)
hello_embed = embeds(lookup_tensor)
print(hello_embed)
print(embeds, embeds.num_embeddings, embeds.embedding_dim, embeds.padding_idx)
table = nn.Embedding(10, 3, padding_idx=-2)
print(table, table.weight)
out = table(torch.tensor([[1, 8, 1], [8, 0, 2]]))
print(out.shape, out.grad_fn)
out.sum().backward()
print(table.weight.grad)
opt = torch.optim.SGD(table.parameters(), lr=0.5)
opt.step()
print(table.weight[:3])
print(nn.Embedding(4, 2, scale_grad_by_freq=True))
try:
    nn.Embedding(3, 2, padding_idx=3)
except AssertionError as e:
    print(repr(e))

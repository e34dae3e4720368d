# torch.nn.utils.rnn.pad_sequence as NLP tutorials batch sequences of different lengths: time-major and batch_first,
# a padding_value, padding_side='left', sequences of feature vectors, integer token ids; the graph PyTorch records
# (CopySlices over CopySlices) and the gradient of each sequence.
import torch
from torch.nn.utils.rnn import pad_sequence

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([4.0], requires_grad=True)
c = torch.tensor([5.0, 6.0], requires_grad=True)
padded = pad_sequence([a, b, c])
print(padded)
print(padded.grad_fn, padded.grad_fn.next_functions[0][0].name())
(padded * torch.arange(9.0).reshape(3, 3)).sum().backward()
print(a.grad, b.grad, c.grad)
print(pad_sequence([a, b, c], batch_first=True, padding_value=-1.0))
print(pad_sequence((a, b, c), batch_first=True, padding_side="left"))
tokens = [torch.tensor([7, 3, 9]), torch.tensor([2, 5]), torch.tensor([4])]
print(pad_sequence(tokens, batch_first=True))
features = [torch.ones(2, 3), torch.full((4, 3), 2.0)]
print(torch.nn.utils.rnn.pad_sequence(features).shape)
print(pad_sequence(features, batch_first=True))

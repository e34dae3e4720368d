# d2l.ai (Dive into Deep Learning, v0.17.6), chapter_linear-networks/softmax-regression-scratch.md: its PyTorch cells
# in order, as written, up to the first that reads the dataset, except that each cell's last bare expression (which
# the notebook shows) is printed, the d2l helpers the cells call are written as d2l/torch.py defines them (d2l.tensor
# is torch.tensor, d2l.reduce_sum(x, *a, **k) x.sum(*a, **k), d2l.exp torch.exp, d2l.normal torch.normal,
# d2l.matmul torch.matmul, d2l.reshape(x, s) x.reshape(s), d2l.log torch.log, d2l.argmax(x, axis) x.argmax(axis),
# d2l.astype(x, t) x.type(t), d2l.size(x) x.numel()), and torch.manual_seed(0) is added after the imports (the cells
# draw unseeded numbers); the Fashion-MNIST cells (a download: load_data_fashion_mnist, and from
# evaluate_accuracy(net, test_iter) on, the training and prediction that read it) are cut, as is the IPython import
# (it serves the cut Animator).
# Source: https://github.com/d2l-ai/d2l-en/blob/v0.17.6/chapter_linear-networks/softmax-regression-scratch.md
import torch
torch.manual_seed(0)

num_inputs = 784
num_outputs = 10

W = torch.normal(0, 0.01, size=(num_inputs, num_outputs), requires_grad=True)
b = torch.zeros(num_outputs, requires_grad=True)

X = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
print(X.sum(0, keepdim=True), X.sum(1, keepdim=True))

def softmax(X):
    X_exp = torch.exp(X)
    partition = X_exp.sum(1, keepdim=True)
    return X_exp / partition  # The broadcasting mechanism is applied here

X = torch.normal(0, 1, (2, 5))
X_prob = softmax(X)
print(X_prob, X_prob.sum(1))

def net(X):
    return softmax(torch.matmul(X.reshape((-1, W.shape[0])), W) + b)

y = torch.tensor([0, 2])
y_hat = torch.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
print(y_hat[[0, 1], y])

def cross_entropy(y_hat, y):
    return - torch.log(y_hat[range(len(y_hat)), y])

print(cross_entropy(y_hat, y))

def accuracy(y_hat, y):  #@save
    """Compute the number of correct predictions."""
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())

print(accuracy(y_hat, y) / len(y))

def evaluate_accuracy(net, data_iter):  #@save
    """Compute the accuracy for a model on a dataset."""
    if isinstance(net, torch.nn.Module):
        net.eval()  # Set the model to evaluation mode
    metric = Accumulator(2)  # No. of correct predictions, no. of predictions

    with torch.no_grad():
        for X, y in data_iter:
            metric.add(accuracy(net(X), y), y.numel())
    return metric[0] / metric[1]

class Accumulator:  #@save
    """For accumulating sums over `n` variables."""
    def __init__(self, n):
        self.data = [0.0] * n

    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]

    def reset(self):
        self.data = [0.0] * len(self.data)

    def __getitem__(self, idx):
        return self.data[idx]

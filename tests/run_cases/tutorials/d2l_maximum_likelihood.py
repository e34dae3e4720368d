# d2l.ai (Dive into Deep Learning, v0.17.6), chapter_appendix-mathematics-for-deep-learning/maximum-likelihood.md:
# its PyTorch cells in order, as written, except that each cell's last bare expression (which the notebook shows)
# is printed and the d2l.plot line (plotting) is cut (with the d2l import it needs).
# Source: https://github.com/d2l-ai/d2l-en/blob/v0.17.6/chapter_appendix-mathematics-for-deep-learning/maximum-likelihood.md
import torch

theta = torch.arange(0, 1, 0.001)
p = theta**9 * (1 - theta)**4.

# Set up our data
n_H = 8675309
n_T = 25624

# Initialize our paramteres
theta = torch.tensor(0.5, requires_grad=True)

# Perform gradient descent
lr = 0.00000000001
for iter in range(10):
    loss = -(n_H * torch.log(theta) + n_T * torch.log(1 - theta))
    loss.backward()
    with torch.no_grad():
        theta -= lr * theta.grad
    theta.grad.zero_()

# Check output
print((theta, n_H / (n_H + n_T)))

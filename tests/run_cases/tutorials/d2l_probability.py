# d2l.ai (Dive into Deep Learning, v0.17.6), chapter_preliminaries/probability.md: its PyTorch cells in order, as written,
# except that each cell's last bare expression (which the notebook shows) is printed; torch.manual_seed(0) is
# added after the imports (the chapter draws unseeded random numbers); and the plotting (the d2l.plt lines and the
# loop that draws each estimate) is cut.
# Source: https://github.com/d2l-ai/d2l-en/blob/v0.17.6/chapter_preliminaries/probability.md

import torch
from torch.distributions import multinomial
torch.manual_seed(0)

fair_probs = torch.ones([6]) / 6
print(multinomial.Multinomial(1, fair_probs).sample())

print(multinomial.Multinomial(10, fair_probs).sample())

# Store the results as 32-bit floats for division
counts = multinomial.Multinomial(1000, fair_probs).sample()
print(counts / 1000)  # Relative frequency as the estimate

counts = multinomial.Multinomial(10, fair_probs).sample((500,))
cum_counts = counts.cumsum(dim=0)
estimates = cum_counts / cum_counts.sum(dim=1, keepdims=True)

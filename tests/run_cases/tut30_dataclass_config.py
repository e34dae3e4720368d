# A @dataclass config class, as model code writes one (nanoGPT's GPTConfig): annotated fields with defaults, the
# __init__ dataclasses writes (by position and by keyword, the defaults where not given), its repr, the class
# attributes holding the defaults, a field without a default first; Python's TypeError for a missing argument.
from dataclasses import dataclass

import torch


@dataclass
class GPTConfig:
    block_size: int = 1024
    vocab_size: int = 50304
    n_layer: int = 12
    dropout: float = 0.0
    bias: bool = True


@dataclass
class Point:
    x: float
    y: float = 2.5

    def norm(self):
        return (self.x ** 2 + self.y ** 2) ** 0.5


config = GPTConfig(block_size=8, vocab_size=16, n_layer=2)
print(config)
print(config.block_size, config.dropout, GPTConfig.vocab_size, GPTConfig())
print(GPTConfig(4, 5), GPTConfig(**dict(n_layer=3)))
p = Point(3.0, 4.0)
print(p, p.norm(), Point(1.0))
config.dropout = 0.1
print(config, torch.nn.Dropout(config.dropout))
try:
    Point()
except TypeError as e:
    print("TypeError:", e)

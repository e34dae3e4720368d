# Python's random module, seeded: its own algorithms, as Python runs them
import random
from random import randint

import torch

random.seed(0)
print(random.randint(0, 3), randint(4, 6), random.random(), random.uniform(-1, 1))
xs = list(range(10))
random.shuffle(xs)
print(xs, random.choice("abc"), random.sample(range(100), 3), random.randrange(0, 10, 2))
print(round(random.gauss(0, 1), 12), random.getrandbits(8))
random.seed("text")
print(random.random())
t = torch.zeros(2)
for _ in range(random.randint(1, 3)):
    t = t + 1
print(t)
print(random.choice([]))

# What tutorial scripts write around their code: `if __name__ == '__main__':`, modules of Python's own that they
# import and never use, sys.stdout.write for a line built in pieces, np.newaxis.
import sys
import pdb
import time
import os.path
import torch
import numpy as np


def main():
    return __name__


if __name__ == '__main__':
    print(main(), __name__)
written = sys.stdout.write("predicted string: ")
for c in ['h', 'i']:
    sys.stdout.write(c)
print(", written:", written)
sys.stdout.flush()
try:
    sys.stdout.write(3)
except TypeError as e:
    print(e)
x = np.linspace(0, 1, 3, dtype=np.float32)
print(torch.from_numpy(x[np.newaxis, :, np.newaxis]).shape)
print(np.arange(4)[:, np.newaxis].shape, np.newaxis)

# format(value, spec), as Python's builtin gives it: a 0-d tensor formats as its number, a tensor of more
# elements takes no spec (Tensor.__format__'s TypeError); found by fuzz/programs.py --family printing (refused).
import torch
t = torch.tensor([1.5, 2.25], dtype=torch.float64)
print(format(t.sum(), '.5g'), format(t[0]), format(3.14159, '.2f'), format(7, '>4'))
print(format(t.sum()))
print(format(True, ''))
try:
    format(t, '.2f')
except TypeError as e:
    print('TypeError', e)
try:
    format(1.5, 3)
except TypeError as e:
    print('TypeError', e)
print(format(t))

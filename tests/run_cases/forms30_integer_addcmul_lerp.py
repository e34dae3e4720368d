import torch
# addcmul of integers stays an integer tensor, its value cast to their dtype first (0.5 is 0, 2.7 is 2, -1 is 255 in
# uint8); bools have no kernel; addcdiv refuses integer tensor1 and tensor2 (bools too); lerp has no integer kernel.
# In place, a float result into an integer tensor is PyTorch's cast error (issue #21)
t = torch.tensor([1, 2, 3])
f = torch.tensor([1.5, 2.5, 3.5], dtype=torch.float64)
for name, g in (("lerp int int 0.5", lambda: torch.lerp(t, t, 0.5)), ("lerp int int t", lambda: torch.lerp(t, t, t)),
                ("lerp int int 1", lambda: torch.lerp(t, t, 1)), ("lerp_ int 1", lambda: t.clone().lerp_(t, 1)),
                ("lerp bool", lambda: torch.lerp(t > 1, t > 2, 0.5)), ("lerp int float", lambda: torch.lerp(t, f, 0.5)),
                ("addcmul i f f", lambda: torch.addcmul(t, f, f, value=0.5)),
                ("addcmul_ i f f", lambda: t.clone().addcmul_(f, f)),
                ("addcmul f i i", lambda: torch.addcmul(f, t, t, value=0.5)),
                ("addcmul i i i 0.5", lambda: torch.addcmul(t, t, t, value=0.5)),
                ("addcmul_ i i i 0.5", lambda: t.clone().addcmul_(t, t, value=0.5)),
                ("addcmul i i i 2.7", lambda: torch.addcmul(t, t, t, value=2.7)),
                ("addcmul i i i -2.7", lambda: torch.addcmul(t, t, t, value=-2.7)),
                ("addcmul i i i True", lambda: torch.addcmul(t, t, t, value=True)),
                ("addcmul b b b", lambda: torch.addcmul(t > 1, t > 1, t > 1)),
                ("addcmul_ b b b", lambda: (t > 1).addcmul_(t > 1, t > 1)),
                ("addcmul b i i", lambda: torch.addcmul(t > 1, t, t, value=0.5)),
                ("addcmul u8 -1", lambda: torch.addcmul(t.to(torch.uint8), t.to(torch.uint8), t.to(torch.uint8), value=-1)),
                ("addcmul i32 i64", lambda: torch.addcmul(t.int(), t, t, value=1.5)),
                ("addcmul i32", lambda: t.int().addcmul(t.int(), t.int(), value=3.9)),
                ("addcdiv f i i", lambda: torch.addcdiv(f, t, t)),
                ("addcdiv i f i", lambda: torch.addcdiv(t, f, t)),
                ("addcdiv i i f", lambda: torch.addcdiv(t, t, f, value=2)),
                ("addcdiv_ i f f", lambda: t.clone().addcdiv_(f, f)),
                ("addcdiv_ i i i", lambda: t.clone().addcdiv_(t, t, value=0.5)),
                ("addcdiv b b f", lambda: torch.addcdiv(f, t > 1, t > 2)),
                ("addcdiv i i i shape", lambda: torch.addcdiv(t, t, torch.ones(2, dtype=torch.long))),
                ("add_ alpha 0.5", lambda: t.clone().add_(t, alpha=0.5)), ("mul_ 1.5", lambda: t.clone().mul_(1.5)),
                ("sub_ 1.5", lambda: t.clone().sub_(1.5)), ("div_ 2", lambda: t.clone().div_(2)),
                ("add alpha 0.5", lambda: torch.add(t, t, alpha=0.5)), ("clamp_ 0.5", lambda: t.clone().clamp_(0.5))):
    try:
        r = g()
        print(name, r, r.dtype)
    except (RuntimeError, NotImplementedError) as e:
        print(name, type(e).__name__, e)
x = torch.tensor([1.0, -2.0], dtype=torch.float64, requires_grad=True)
y = torch.addcmul(x, x, x * 2, value=0.5)
y.sum().backward()
print(y, y.grad_fn, x.grad)

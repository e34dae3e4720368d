# grad_fn hooks under torch.autograd.grad: a node's pre-hook and hook (returning None: printing only) beside a tensor hook
# and another pre-hook that changes the gradient, their handles (printed, removed), isinstance of
# torch.autograd.graph.Node, and a post-accumulate hook under backward(create_graph=True).
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x.exp2() if False else x * x
z = y.sin() if False else y * 3
def pre(g):
    print("pre", g)
def post(gi, go):
    print("post", gi, go)
h1 = z.grad_fn.register_prehook(pre)
h2 = z.grad_fn.register_hook(post)
y.register_hook(lambda g: print("tensor", g))
y.grad_fn.register_prehook(lambda g: (g[0] + 1,))
print(torch.autograd.grad(z.sum(), x, retain_graph=True))
h1.remove(); h2.remove()
print(torch.autograd.grad(z.sum(), x))
print(z.grad_fn.register_hook(post))
print(isinstance(x, torch.autograd.graph.Node), isinstance(z.grad_fn.next_functions[0][0], torch.autograd.graph.Node))
w = torch.tensor(2., requires_grad=True)
w.register_post_accumulate_grad_hook(lambda p: print("acc", p.grad))
(w * w).backward(create_graph=True)
print(w.grad)

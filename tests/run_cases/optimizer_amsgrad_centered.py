# Adam/AdamW(amsgrad=True) (the running maximum of exp_avg_sq under the root) and RMSprop(centered=True) (the
# squares' average less the gradients' average squared), as PyTorch's single-tensor loops compute them, step by step.
import torch

for dtype in [torch.float64]:  # (float32 takes MKL's sqrt: its bits are the machine's)
    for name, options in [("Adam", dict(lr=0.1, amsgrad=True)), ("AdamW", dict(lr=0.1, amsgrad=True)),
                          ("RMSprop", dict(lr=0.01, centered=True)),
                          ("RMSprop", dict(lr=0.01, centered=True, momentum=0.9, alpha=0.3)),
                          ("RMSprop", dict(lr=0.01, centered=True, alpha=0.7))]:
        torch.manual_seed(1)
        w = torch.randn(6, dtype=dtype, requires_grad=True)
        opt = getattr(torch.optim, name)([w], **options)
        for i in range(6):
            opt.zero_grad()
            ((w * 0.7 - 0.3) ** 2).sum().backward()
            opt.step()
        print(name, options, dtype, w.tolist())
        print(sorted(opt.state_dict()["state"][0].keys()))

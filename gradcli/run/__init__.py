"""`gradcli run`: straight-line PyTorch autograd code, read by gradcli's own interpreter.

    reprs.py   how PyTorch prints a tensor (torch._tensor_str's rules: precision, int and
               scientific modes, summarizing, line width), re-implemented on NumPy
"""

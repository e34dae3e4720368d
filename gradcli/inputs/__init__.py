"""What a user gives beside the program, read once, before any computing.

literals  the values of --at, --seed and --tangent: one grammar, parsed once with spans
ranges    arange and linspace with PyTorch's bits
points    --points: CSV and JSON Lines read a chunk at a time
"""

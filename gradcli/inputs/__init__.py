"""What a user gives beside the program, read once, before any computing.

literals  the values of --at, --tangent and --seed: one grammar, parsed once with spans
ranges    arange and linspace with PyTorch's bits
lines     --points bytes -> lines of text, read in bounded pieces
points    --points: the one reading loop (chunks, bad lines, --skip-bad) over a format
rows      what a format gives the loop (Rows), and the shapes of a point's inputs
csv       the CSV format: a header, then NumPy's parser a chunk at a time
jsonl     the JSON Lines format: an object per line
"""

"""What a user gives beside the program, read once, before any computing.

literals  the values of --at, --tangent and --seed: one grammar, parsed once with spans
ranges    arange and linspace with PyTorch's bits
lines     --points bytes -> lines of text, read in bounded pieces
points    --points: the one reading loop (chunks, bad lines, --skip-bad) over a format
rows      what every format shares: the shapes of a point's inputs, the columns carried through
csv       the CSV format: a header, then a point a line
jsonl     the JSON Lines format: an object per line
tables    Parquet and Arrow, read by pyarrow (the data extra)
"""

# Python's ord and chr (hunkim's PyTorchZeroToAll 13_1 turns names into ASCII codes with ord): their values and errors.
print(ord("a"), chr(98), [ord(c) for c in "adylov"], chr(ord("Z") + 1))
for bad in (lambda: ord("ab"), lambda: ord(3), lambda: chr(1.5), lambda: chr(-1), lambda: ord()):
    try:
        bad()
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)

import torch
# try/except/else/finally over the errors PyTorch raises, as tutorials check them
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
try:
    y.backward()
except RuntimeError as e:
    print("caught:", e)
    print(repr(e))
try:
    z = torch.ones(2, 3) @ torch.ones(2, 3)
except (ValueError, RuntimeError) as error:
    print(type(error).__name__ if False else "RuntimeError", str(error))
else:
    print("not reached")
finally:
    print("finally runs")
for i in range(3):
    try:
        if i == 1:
            continue
        v = torch.tensor([1, 2])[i]
    except IndexError as e:
        print("index", i, e)
    else:
        print("got", v)
    finally:
        print("end of", i)
try:
    y.sum().backward()
    print(x.grad)
except Exception:
    print("not reached")
try:
    torch.tensor([1, 2]).mean()
except Exception as e:
    print("mean:", e)
try:
    try:
        {}["k"]
    except ValueError:
        print("not this one")
except KeyError as e:
    print("outer KeyError", e)
try:
    torch.tensor([1.0]).backward()
except TypeError:
    print("not reached")

"""FACT quick start (FACT-Development-Team/FACT QuickStart layout: transformer.py, data.py, device_decision.py; the script puts the folder on sys.path): the model is built first, then the data module is imported, and its `from device_decision import device` runs torch.set_default_dtype(torch.float64) at import, so the sampled functions are float64 while the already-built transformer is float32
source: https://github.com/FACT-Development-Team/FACT/blob/b1142e60de28ee7fe3918cfc6c0626940b06ed44/QuickStart/device_decision.py
reported-error: (the repository module itself sets the float64 default at import; imported after the model exists, the variant fails with RuntimeError: expected m1 and m2 to have the same dtype, but got: double != float)
outcome: RuntimeError: expected m1 and m2 to have the same dtype, but got: double != float at src/transformer.py:33
root-cause: src/device_decision.py:2
expect: DG001
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"))

import torch  # noqa: E402

from transformer import FunctionTransformer  # noqa: E402

torch.manual_seed(0)
model = FunctionTransformer()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)


def train(steps=20):
    from data import sample_functions  # the curriculum's data are only needed once training starts

    model.to(torch.device("cuda" if torch.cuda.is_available() else "cpu"))
    for step in range(steps):
        x, y = sample_functions(32)
        loss = ((model(x) - y) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


print(f"final loss {train():.4f}")

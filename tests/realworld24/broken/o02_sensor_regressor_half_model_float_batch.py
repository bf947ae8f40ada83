"""Industrial sensor regressor exported for a low-memory box: a config flag halves the trained MLP with model.half(), but the batch built from the float32 sensor matrix is passed straight in, so the first Linear multiplies float32 activations by float16 weights
source: https://geek-docs.com/go-tutorials/go-ask-answer/243_hk_1709765946.html
reported-error: RuntimeError: mat1 and mat2 must have the same dtype, but got Float and Half
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Float and Half at line 22
root-cause: line 28
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn

CONFIG = {"half_precision": True, "hidden": 32, "batch_size": 16}


class SensorMLP(nn.Module):
    def __init__(self, n_in, hidden):
        super().__init__()
        self.fc1 = nn.Linear(n_in, hidden)
        self.fc2 = nn.Linear(hidden, 1)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))  # fails-here


def load_model(n_in, cfg):
    model = SensorMLP(n_in, cfg["hidden"])
    if cfg["half_precision"]:
        model = model.half()  # root-cause
    return model.eval()


def make_batches(cfg):
    rng = np.random.default_rng(0)
    readings = rng.normal(size=(64, 6)).astype(np.float32)
    for i in range(0, len(readings), cfg["batch_size"]):
        yield torch.from_numpy(readings[i:i + cfg["batch_size"]])


def predict(model, cfg):
    preds = []
    with torch.no_grad():
        for batch in make_batches(cfg):
            preds.append(model(batch))
    return torch.cat(preds)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = load_model(6, CONFIG)
    out = predict(model, CONFIG)
    print("predictions", tuple(out.shape), out.dtype)

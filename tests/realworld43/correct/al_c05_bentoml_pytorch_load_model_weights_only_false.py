"""Serving a chest X-ray classifier with BentoML's PyTorch framework (as in al05: save_model pickles the whole nn.Module with torch.save(model, f, pickle_module=cloudpickle) into the local model store) with load_model defaulting weights_only to False, torch_load_args.setdefault("weights_only", False), as BentoML pull request #5630 does for issue #5365 because the model store holds BentoML's own trusted artifacts; the runner starts and predicts (exit 0)
source: https://github.com/bentoml/BentoML/issues/5365
reported-error: (none filed; the fixed situation of al05)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import cloudpickle
import numpy as np
import pandas as pd

import torch
import torch.nn as nn
import torch.nn.functional as F

MODEL_STORE = tempfile.mkdtemp()


# ---- bentoml/_internal/frameworks/pytorch.py (re-typed: the model store is a folder per tag)
MODEL_FILENAME = "saved_model.pt"


def save_model(name, model, signatures=None, metadata=None):
    tag = f"{name}:v1"
    path = os.path.join(MODEL_STORE, name, "v1")
    os.makedirs(path, exist_ok=True)
    weight_file = os.path.join(path, MODEL_FILENAME)
    with open(weight_file, "wb") as file:
        torch.save(model, file, pickle_module=cloudpickle)
    pd.Series(metadata or {}).to_json(os.path.join(path, "model.json"))
    return tag


def load_model(bentoml_model, device_id="cpu", **torch_load_args):
    name, version = bentoml_model.split(":")
    weight_file = os.path.join(MODEL_STORE, name, version, MODEL_FILENAME)
    torch_load_args.setdefault("weights_only", False)
    with open(weight_file, "rb") as file:
        model = torch.load(file, map_location=device_id, **torch_load_args)
    return model


class Runner:
    def __init__(self, tag):
        self.tag = tag
        self.model = None

    def init_local(self):
        self.model = load_model(self.tag, device_id="cuda" if torch.cuda.is_available() else "cpu")
        self.model.eval()

    def run(self, x):
        with torch.no_grad():
            return self.model(x)


def get_runner(tag):
    return Runner(tag)


# ---- the user's model and training script (src/ml/model.py, src/ml/train.py of the X-ray project)
class XrayCNN(nn.Module):
    def __init__(self, num_classes=2):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.fc = nn.Linear(16 * 16 * 16, num_classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        return self.fc(x.flatten(1))


def train_and_store():
    rng = np.random.default_rng(0)
    images = rng.normal(size=(64, 1, 64, 64)).astype(np.float32)
    labels = rng.integers(0, 2, size=64)
    model = XrayCNN()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        for i in range(0, 64, 16):
            x = torch.from_numpy(images[i:i + 16])
            y = torch.from_numpy(labels[i:i + 16])
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print("epoch %d loss %.4f" % (epoch, loss.item()))
    return save_model("xray_model", model, metadata={"classes": "NORMAL,PNEUMONIA"})


# ---- the user's service.py: the runner is started when `bentoml serve` boots
def serve(tag):
    xray_runner = get_runner(tag)
    xray_runner.init_local()
    scan = torch.randn(1, 1, 64, 64)
    probs = torch.softmax(xray_runner.run(scan), dim=1)
    print("prediction:", ["NORMAL", "PNEUMONIA"][int(probs.argmax())], float(probs.max()))


if __name__ == "__main__":
    torch.manual_seed(0)
    tag = train_and_store()
    serve(tag)

"""Model-conversion test harness (MMdnn-style Keras -> PyTorch) whose reference computations stay in float64 NumPy, while the batch handed to the emitted PyTorch model is converted with torch.from_numpy(...).float() (the PR's fix), matching the float32 Conv2d weights
source: https://github.com/microsoft/MMdnn/pull/212
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

_weights_dict = dict()


def load_weights(weight_file):
    try:
        weights_dict = np.load(weight_file, allow_pickle=True).item()
    except Exception:
        weights_dict = np.load(weight_file, allow_pickle=True, encoding="bytes").item()
    return weights_dict


# ---- emitted by the PyTorch emitter
class KitModel(nn.Module):
    def __init__(self, weight_file):
        super(KitModel, self).__init__()
        global _weights_dict
        _weights_dict = load_weights(weight_file)
        self.conv2d_1 = self.__conv(2, name="conv2d_1", in_channels=3, out_channels=8, kernel_size=(3, 3), stride=(1, 1), groups=1, bias=True)
        self.dense_1 = self.__dense(name="dense_1", in_features=8, out_features=5, bias=True)

    def forward(self, x):
        conv2d_1 = F.relu(self.conv2d_1(x))
        pooled = torch.mean(conv2d_1, dim=(2, 3))
        return F.softmax(self.dense_1(pooled), dim=1)

    @staticmethod
    def __conv(dim, name, **kwargs):
        layer = nn.Conv2d(**kwargs)
        layer.state_dict()["weight"].copy_(torch.from_numpy(_weights_dict[name]["weights"]))
        layer.state_dict()["bias"].copy_(torch.from_numpy(_weights_dict[name]["bias"]))
        return layer

    @staticmethod
    def __dense(name, **kwargs):
        layer = nn.Linear(**kwargs)
        layer.state_dict()["weight"].copy_(torch.from_numpy(_weights_dict[name]["weights"]))
        layer.state_dict()["bias"].copy_(torch.from_numpy(_weights_dict[name]["bias"]))
        return layer


# ---- the converter's test: reference output of the source model, then the emitted model
def keras_reference(weights, input_data):
    w = weights["conv2d_1"]["weights"].astype(np.float64)
    return w.sum()


def test_pytorch(weight_path, input_data):
    model = KitModel(weight_path)
    model.eval()
    input_pytorch = np.transpose(input_data, (0, 3, 1, 2)).copy()
    input_pytorch = torch.from_numpy(input_pytorch).float()
    with torch.no_grad():
        predict = model(input_pytorch)
    return predict.numpy()


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    weights = {
        "conv2d_1": {"weights": rng.standard_normal((8, 3, 3, 3)).astype(np.float32), "bias": np.zeros(8, np.float32)},
        "dense_1": {"weights": rng.standard_normal((5, 8)).astype(np.float32), "bias": np.zeros(5, np.float32)},
    }
    weight_path = os.path.join(tempfile.mkdtemp(), "keras_model.npy")
    np.save(weight_path, weights, allow_pickle=True)
    input_data = np.random.random((2, 24, 24, 3))
    print("reference", keras_reference(weights, input_data))
    out = test_pytorch(weight_path, input_data)
    print("pytorch output", out.shape, out.sum(axis=1))

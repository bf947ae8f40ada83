"""Pretrained-model playground on a laptop (aaron-xichen/pytorch-playground mnist/model.py + utee/selector.py layout): the model factory fetches the published MNIST weights with model_zoo.load_url and no map_location, and the cached file was saved from CUDA tensors, so deserialisation needs a GPU even though the selector was asked for cuda=False
source: https://github.com/aaron-xichen/pytorch-playground/pull/60
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location='cpu' to map your storages to the CPU. (loading the pretrained MNIST model from model_zoo on a CPU-only machine)
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 42
root-cause: line 42
expect: DG010
"""
import argparse
import os
import tempfile
from collections import OrderedDict

import torch
import torch.hub
import torch.nn as nn
import torch.serialization as serialization
import torch.utils.model_zoo as model_zoo

model_urls = {"mnist": "http://ml.cs.tsinghua.edu.cn/~chenxi/pytorch-models/mnist-b07bb66b.pth"}


# ---- mnist/model.py
class MLP(nn.Module):
    def __init__(self, input_dims, n_hiddens, n_class):
        super().__init__()
        layers = OrderedDict()
        current_dims = input_dims
        for i, n_hidden in enumerate(n_hiddens):
            layers[f"fc{i + 1}"] = nn.Linear(current_dims, n_hidden)
            layers[f"relu{i + 1}"] = nn.ReLU()
            current_dims = n_hidden
        layers["out"] = nn.Linear(current_dims, n_class)
        self.model = nn.Sequential(layers)

    def forward(self, input):
        return self.model(input.view(input.size(0), -1))


def mnist(input_dims=784, n_hiddens=[256, 256], n_class=10, pretrained=None):
    model = MLP(input_dims, n_hiddens, n_class)
    if pretrained is not None:
        m = model_zoo.load_url(model_urls["mnist"])  # root-cause  # fails-here
        state_dict = m.state_dict() if isinstance(m, nn.Module) else m
        assert isinstance(state_dict, (dict, OrderedDict)), type(state_dict)
        model.load_state_dict(state_dict)
    return model


# ---- utee/selector.py
def select(model_name, cuda=True, **kwargs):
    assert model_name == "mnist", model_name
    model = mnist(pretrained=True)
    return (model.cuda() if cuda else model), "mnist"


# ---- the weights as published: saved from a GPU training run, already in the hub cache
def seed_hub_cache(hub_dir):
    torch.hub.set_dir(hub_dir)
    os.makedirs(os.path.join(hub_dir, "checkpoints"), exist_ok=True)
    cached = os.path.join(hub_dir, "checkpoints", os.path.basename(model_urls["mnist"]))
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save(MLP(784, [256, 256], 10).state_dict(), cached)
    finally:
        serialization.location_tag = original


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="PyTorch playground")
    parser.add_argument("--type", default="mnist")
    parser.add_argument("--gpu", default="")
    args = parser.parse_args([])
    torch.manual_seed(0)
    seed_hub_cache(tempfile.mkdtemp())
    model_raw, ds_name = select(args.type, cuda=bool(args.gpu))
    with torch.no_grad():
        print(ds_name, "logits", model_raw(torch.rand(2, 1, 28, 28)).shape)

"""Save-on-GPU / load-elsewhere recipe from a PyTorch-basics repo (satichandrala/pytorchbasics saveandload-Models/loadingmodelsonCPUAndGPU.py: model.to(device); torch.save(model.state_dict(), PATH); model.load_state_dict(torch.load(PATH))): the inference script picks its device at run time but loads the GPU-saved weights without map_location, which fails on a CPU-only machine
source: https://github.com/satichandrala/pytorchbasics/blob/6868a6298d396749f8c9c03c324b12da7da0a43a/saveandload-Models/loadingmodelsonCPUAndGPU.py
reported-error: (none filed; the file's "save model on GPU and load on GPU" section run on a CPU machine: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False.)
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 39
root-cause: line 39
expect: DG010
"""
import os
import tempfile

import torch
import torch.nn as nn
import torch.serialization as serialization


class Model(nn.Module):
    def __init__(self, n_input_features=6):
        super(Model, self).__init__()
        self.linear = nn.Linear(n_input_features, 1)

    def forward(self, x):
        return torch.sigmoid(self.linear(x))


def train_on_gpu_box(PATH):
    """What the training machine did: model.to(torch.device("cuda")); torch.save(model.state_dict(), PATH)."""
    model = Model(n_input_features=6)
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save(model.state_dict(), PATH)
    finally:
        serialization.location_tag = original


def load_for_inference(PATH):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Model(n_input_features=6)
    model.load_state_dict(torch.load(PATH))  # root-cause  # fails-here
    model.to(device)
    model.eval()
    with torch.no_grad():
        print(model(torch.rand(3, 6, device=device)).squeeze(1).tolist())


if __name__ == "__main__":
    PATH = os.path.join(tempfile.mkdtemp(), "model.pth")
    train_on_gpu_box(PATH)
    load_for_inference(PATH)

"""Fine-tuning resumed on a CPU-only workstation: a Checkpointer helper reads a state-dict checkpoint written on a GPU node with torch.load(path) (no map_location), then loads model and optimizer states
source: https://deadends.dev/cuda/checkpoint-device-mismatch/cuda12-linux
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 38
root-cause: line 38
expect: DG010
"""
import contextlib
import os
import tempfile

import torch
import torch.nn as nn


@contextlib.contextmanager
def as_if_saved_on_gpu():
    orig = torch.serialization.location_tag
    torch.serialization.location_tag = lambda storage: "cuda:0"
    try:
        yield
    finally:
        torch.serialization.location_tag = orig


def build_model():
    return nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 5))


class Checkpointer:
    def __init__(self, directory):
        self.path = os.path.join(directory, "last.ckpt")

    def save(self, model, optimizer, step):
        torch.save({"model": model.state_dict(), "optim": optimizer.state_dict(), "step": step}, self.path)

    def restore(self, model, optimizer):
        state = torch.load(self.path)  # root-cause # fails-here
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optim"])
        return state["step"]


def main():
    ckpt = Checkpointer(tempfile.mkdtemp())
    gpu_model = build_model()
    gpu_opt = torch.optim.AdamW(gpu_model.parameters(), lr=1e-3)
    with as_if_saved_on_gpu():
        ckpt.save(gpu_model, gpu_opt, step=1200)

    model = build_model()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    step = ckpt.restore(model, optimizer)
    print("resumed at step", step)


if __name__ == "__main__":
    main()

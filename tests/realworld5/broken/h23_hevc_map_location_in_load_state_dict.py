"""CU-depth prediction CNN re-run on a CPU: map_location was added to load_state_dict(...) instead of torch.load(...), so the GPU checkpoint is still deserialised onto CUDA
source: https://github.com/wolverinn/HEVC-CU-depths-prediction-CNN/issues/8
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 58
root-cause: line 58
expect: DG010
"""
import contextlib
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.serialization

LOAD_DIR = tempfile.mkdtemp()
paft = os.path.join("{}", "hevc_encoder_model.pt")


class ConvNet(nn.Module):
    def __init__(self):
        super(ConvNet, self).__init__()
        self.conv1 = nn.Conv2d(1, 16, 4, stride=4)
        self.conv2 = nn.Conv2d(16, 24, 2, stride=2)
        self.fc1 = nn.Linear(24 * 8 * 8, 64)
        self.fc2 = nn.Linear(64, 16)

    def forward(self, x):
        x = F.relu(self.conv2(F.relu(self.conv1(x))))
        x = F.relu(self.fc1(x.view(x.size(0), -1)))
        return self.fc2(x)


@contextlib.contextmanager
def saved_on_gpu():
    """The released .pt file was written from a CUDA model (storages tagged cuda:0)."""
    orig = torch.serialization.location_tag
    torch.serialization.location_tag = lambda storage: "cuda:0"
    try:
        yield
    finally:
        torch.serialization.location_tag = orig


def predict_depths(model, frame):
    ctus = torch.from_numpy(frame.astype(np.float32) / 255.0).unfold(0, 64, 64).unfold(1, 64, 64)
    ctus = ctus.reshape(-1, 1, 64, 64)
    with torch.no_grad():
        return model(ctus).view(-1, 4, 4).clamp(0, 3).round()


if __name__ == "__main__":
    with saved_on_gpu():
        torch.save(ConvNet().state_dict(), paft.format(LOAD_DIR))
    model = ConvNet()
    model.load_state_dict(torch.load(paft.format(LOAD_DIR)), map_location=torch.device("cpu"))  # root-cause # fails-here
    model.eval()
    frame = np.random.randint(0, 256, size=(128, 192), dtype=np.uint8)
    print(predict_depths(model, frame).shape)

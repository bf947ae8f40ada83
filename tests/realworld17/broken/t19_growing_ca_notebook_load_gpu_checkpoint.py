"""Growing neural cellular automata notebook export: the CA model was trained (on a GPU) in the training cells and saved with torch.save(ca.state_dict()); the inference cell on a CPU-only laptop reloads it with torch.load(MODEL_PATH) and no map_location
source: https://github.com/chenmingxiang110/Growing-Neural-Cellular-Automata/issues/2
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location='cpu' to map your storages to the CPU.
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 56
root-cause: line 56
expect: DG010
"""
# In[1]:

import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import serialization

# In[2]:

CHANNEL_N = 16
MODEL_PATH = os.path.join(tempfile.mkdtemp(), "remaster_1.pth")


class CAModel(nn.Module):
    def __init__(self, channel_n=CHANNEL_N, hidden=64):
        super().__init__()
        self.fc0 = nn.Linear(channel_n * 3, hidden)
        self.fc1 = nn.Linear(hidden, channel_n, bias=False)
        sobel = np.outer([1, 2, 1], [-1, 0, 1]) / 8.0
        identity = np.array([[0, 0, 0], [0, 1, 0], [0, 0, 0]])
        self.register_buffer("kernels", torch.tensor(np.stack([identity, sobel, sobel.T]), dtype=torch.float32))

    def perceive(self, x):
        k = self.kernels.repeat(CHANNEL_N, 1, 1).unsqueeze(1)
        return F.conv2d(x, k, padding=1, groups=CHANNEL_N)

    def forward(self, x, steps=4):
        for _ in range(steps):
            y = self.perceive(x).permute(0, 2, 3, 1)
            dx = self.fc1(F.relu(self.fc0(y))).permute(0, 3, 1, 2)
            x = x + dx * (torch.rand_like(x[:, :1]) > 0.5)
        return x

# In[3]:

# (training cells ran on the GPU box; the checkpoint keeps its cuda:0 storage tags)
_tag = serialization.location_tag
serialization.location_tag = lambda storage: "cuda:0"
torch.save(CAModel().state_dict(), MODEL_PATH)
serialization.location_tag = _tag

# In[4]:

ca = CAModel()
ca.load_state_dict(torch.load(MODEL_PATH))  # root-cause  # fails-here
seed = torch.zeros(1, CHANNEL_N, 24, 24)
seed[:, 3:, 12, 12] = 1.0
out = ca(seed)
print("alive cells", int((out[:, 3] > 0.1).sum()))

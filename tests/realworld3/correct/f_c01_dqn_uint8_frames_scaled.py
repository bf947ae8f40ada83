"""DQN on stacked uint8 Atari frames, converted with .float() / 255 before the conv net
source: https://github.com/pytorch/pytorch/issues/882
reported-error: none (this is the fix given in the report thread)
outcome: ok
root-cause: none
expect: none
"""
import random
from collections import deque

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class DQN(nn.Module):
    def __init__(self, in_channels=4, num_actions=18):
        super(DQN, self).__init__()
        self.conv1 = nn.Conv2d(in_channels, 32, kernel_size=8, stride=4)
        self.conv2 = nn.Conv2d(32, 64, kernel_size=4, stride=2)
        self.conv3 = nn.Conv2d(64, 64, kernel_size=3, stride=1)
        self.fc4 = nn.Linear(7 * 7 * 64, 512)
        self.fc5 = nn.Linear(512, num_actions)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = F.relu(self.conv3(x))
        x = F.relu(self.fc4(x.view(x.size(0), -1)))
        return self.fc5(x)


def fake_env_frames():
    # atari frames as stored by the wrapper: uint8 stack of 4 x 84 x 84
    return np.random.randint(0, 256, size=(4, 84, 84), dtype=np.uint8)


def select_epilson_greedy_action(model, obs, t, num_actions=18):
    sample = random.random()
    eps_threshold = max(0.1, 1.0 - t / 1000)
    if sample > eps_threshold:
        obs = torch.from_numpy(obs).float().unsqueeze(0) / 255.0
        with torch.no_grad():
            return model(obs).data.max(1)[1].cpu()
    else:
        return torch.IntTensor([[random.randrange(num_actions)]])


Q = DQN()
replay = deque(maxlen=100)
random.seed(0)
for t in range(2000, 2010):
    last_obs = fake_env_frames()
    action = select_epilson_greedy_action(Q, last_obs, t)
    replay.append((last_obs, int(action.view(-1)[0])))
print("collected", len(replay))

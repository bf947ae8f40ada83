"""ALF-style RL checkpointer: global_step is a NumPy counter, so the saved checkpoint holds an ndarray
source: https://github.com/HorizonRobotics/alf/pull/1754
reported-error: WeightsUnpickler error: Unsupported global: GLOBAL numpy.core.multiarray._reconstruct was not an allowed global by default.
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray._reconstruct was not an allowed global by default. ... at line 70
root-cause: line 70
expect: DG011
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

# alf.summary-like global counter
_global_counter = np.zeros((), dtype=np.int64)


def get_global_counter():
    return _global_counter


def increment_global_counter():
    _global_counter[()] += 1


class QNetwork(nn.Module):
    def __init__(self, obs_dim=8, num_actions=4):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, num_actions))

    def forward(self, obs):
        return self.fc(obs)


class SarsaAlgorithm(nn.Module):
    def __init__(self):
        super().__init__()
        self.q_net = QNetwork()
        self.optimizer = torch.optim.Adam(self.q_net.parameters(), lr=1e-3)

    def train_iter(self, obs, action, reward, next_obs):
        q = self.q_net(obs).gather(1, action[:, None]).squeeze(1)
        with torch.no_grad():
            target = reward + 0.99 * self.q_net(next_obs).max(1).values
        loss = F.smooth_l1_loss(q, target)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        increment_global_counter()
        return loss.item()


class Checkpointer(object):
    def __init__(self, ckpt_dir, **kwargs):
        self._ckpt_dir = ckpt_dir
        self._modules = kwargs
        os.makedirs(ckpt_dir, exist_ok=True)

    def save(self, global_step):
        state = {k: v.state_dict() for k, v in self._modules.items()}
        state['global_step'] = global_step  # root-cause-alt
        torch.save(state, os.path.join(self._ckpt_dir, "ckpt-%d" % int(global_step)))
        torch.save(state, os.path.join(self._ckpt_dir, "latest"))

    def load(self, global_step="latest"):
        f_path = os.path.join(self._ckpt_dir, str(global_step))
        map_location = None if torch.cuda.is_available() else torch.device("cpu")
        checkpoint = torch.load(f_path, map_location=map_location)  # root-cause # fails-here
        for k, v in self._modules.items():
            v.load_state_dict(checkpoint[k])
        return checkpoint['global_step']


def main():
    root_dir = tempfile.mkdtemp()
    algorithm = SarsaAlgorithm()
    checkpointer = Checkpointer(os.path.join(root_dir, "train", "algorithm"), algorithm=algorithm)
    for it in range(20):
        obs, next_obs = torch.randn(32, 8), torch.randn(32, 8)
        action = torch.randint(0, 4, (32,))
        reward = torch.randn(32)
        loss = algorithm.train_iter(obs, action, reward, next_obs)
    checkpointer.save(global_step=get_global_counter())
    print("saved at step", int(get_global_counter()), "loss", loss)

    # resume training in a new run
    new_algorithm = SarsaAlgorithm()
    step = Checkpointer(os.path.join(root_dir, "train", "algorithm"), algorithm=new_algorithm).load()
    print("restored global_step", step)


if __name__ == "__main__":
    main()

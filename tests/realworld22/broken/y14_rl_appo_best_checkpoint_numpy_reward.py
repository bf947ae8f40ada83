"""Asynchronous PPO learner (sample-factory layout) that keeps the best policy: save_best() records best_performance from np.mean over the recent episode returns, a numpy.float64, in the checkpoint dict; resuming then calls torch.load(latest_checkpoint, map_location=device) with PyTorch 2.6's default weights_only=True, which rejects the NumPy scalar
source: https://github.com/alex-petrenko/sample-factory/issues/313
reported-error: _pickle.UnpicklingError: Weights only load failed ... (1) In PyTorch 2.6, we changed the default value of the weights_only argument in torch.load from False to True ... (learner.py load_checkpoint, checkpoint_dict = torch.load(latest_checkpoint, map_location=device))
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray.scalar was not an allowed global by default. ... at line 53
root-cause: line 47
expect: DG011
"""
import glob
import os
import tempfile
from os.path import join

import numpy as np
import torch
import torch.nn as nn


# ---- sample_factory/model/actor_critic.py
class ActorCritic(nn.Module):
    def __init__(self, obs_dim=8, n_actions=4):
        super().__init__()
        self.core = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh())
        self.policy = nn.Linear(64, n_actions)
        self.value = nn.Linear(64, 1)

    def forward(self, obs):
        h = self.core(obs)
        return self.policy(h), self.value(h)


# ---- sample_factory/algo/learning/learner.py
class Learner:
    def __init__(self, train_dir):
        self.train_dir = train_dir
        self.device = torch.device("cpu")
        self.actor_critic = ActorCritic()
        self.optimizer = torch.optim.Adam(self.actor_critic.parameters(), lr=1e-4, eps=1e-6)
        self.train_step, self.env_steps, self.best_performance = 0, 0, -1e9

    def _get_checkpoint_dict(self):
        return {"train_step": self.train_step, "env_steps": self.env_steps, "best_performance": self.best_performance,
                "model": self.actor_critic.state_dict(), "optimizer": self.optimizer.state_dict()}

    def save_best(self, episode_returns):
        metric_value = np.mean(episode_returns)
        if metric_value - self.best_performance > 1e-3:
            self.best_performance = metric_value  # root-cause
            torch.save(self._get_checkpoint_dict(), join(self.train_dir, f"best_{self.train_step:09d}.pth"))

    def load_checkpoint(self):
        checkpoints = sorted(glob.glob(join(self.train_dir, "best_*")))
        latest_checkpoint = checkpoints[-1]
        checkpoint_dict = torch.load(latest_checkpoint, map_location=self.device)  # fails-here
        self.actor_critic.load_state_dict(checkpoint_dict["model"])
        self.optimizer.load_state_dict(checkpoint_dict["optimizer"])
        self.train_step = checkpoint_dict["train_step"]

    def train_iteration(self, rng):
        obs = torch.from_numpy(rng.normal(size=(32, 8)).astype(np.float32))
        logits, values = self.actor_critic(obs)
        advantages = torch.randn(32)
        actions = torch.distributions.Categorical(logits=logits).sample()
        logp = torch.log_softmax(logits, -1).gather(1, actions[:, None]).squeeze(1)
        loss = -(logp * advantages).mean() + 0.5 * values.squeeze(1).pow(2).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.train_step += 1
        self.env_steps += 32


if __name__ == "__main__":
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    train_dir = tempfile.mkdtemp()
    learner = Learner(train_dir)
    for it in range(5):
        learner.train_iteration(rng)
        learner.save_best(rng.normal(loc=it, size=16).tolist())
    resumed = Learner(train_dir)
    resumed.load_checkpoint()
    print("resumed at train_step", resumed.train_step)

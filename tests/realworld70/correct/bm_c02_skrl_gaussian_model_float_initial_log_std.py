"""The skrl-style PPO-like reaching policy of bm02 with the fix of PR #297: the generated GaussianModel writes fill_value=float(initial_log_std), so the log-std parameter is float32 and trainable even though the instantiator's default initial_log_std is still the int 0; the float32 NumPy states through torch.from_numpy are kept
source: https://github.com/Toni-SM/skrl/pull/297
reported-error: (none filed; the fixed situation of bm02)
outcome: ok
root-cause: -
expect: none
"""

import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Normal

torch.manual_seed(0)
rng = np.random.default_rng(0)


class Model(nn.Module):
    def __init__(self, observation_space, action_space, device=None):
        super().__init__()
        self.observation_space, self.action_space = observation_space, action_space
        self.num_observations, self.num_actions = observation_space, action_space
        self.device = torch.device("cuda" if device is None and torch.cuda.is_available() else device or "cpu")

    def act(self, inputs, role=""):
        raise NotImplementedError


class GaussianMixin:
    def __init__(self, clip_actions=False, clip_log_std=True, min_log_std=-20, max_log_std=2, reduction="sum"):
        self._g_clip_log_std, self._g_min_log_std, self._g_max_log_std = clip_log_std, min_log_std, max_log_std
        self._g_reduction = reduction

    def act(self, inputs, role=""):
        mean_actions, log_std, outputs = self.compute(inputs, role)
        if self._g_clip_log_std:
            log_std = torch.clamp(log_std, self._g_min_log_std, self._g_max_log_std)
        dist = Normal(mean_actions, log_std.exp())
        actions = inputs.get("taken_actions", None)
        if actions is None:
            actions = dist.rsample()
        log_prob = dist.log_prob(actions)
        if self._g_reduction == "sum":
            log_prob = log_prob.sum(dim=-1, keepdim=True)
        outputs["mean_actions"] = mean_actions
        return actions, log_prob, outputs


def gaussian_model(observation_space=None, action_space=None, device=None, clip_actions=False, clip_log_std=True,
                   min_log_std=-20, max_log_std=2, reduction="sum", initial_log_std: float = 0,
                   fixed_log_std=False, hidden=(32, 32)):
    """What skrl.utils.model_instantiators.torch.gaussian_model generates (there: a template string run with exec)."""

    class GaussianModel(GaussianMixin, Model):
        def __init__(self, observation_space, action_space, device, clip_actions, clip_log_std, min_log_std,
                     max_log_std, reduction="sum"):
            Model.__init__(self, observation_space, action_space, device)
            GaussianMixin.__init__(self, clip_actions, clip_log_std, min_log_std, max_log_std, reduction)

            self.net_container = nn.Sequential(
                nn.Linear(self.num_observations, hidden[0]), nn.ELU(), nn.Linear(hidden[0], hidden[1]), nn.ELU())
            self.output_layer = nn.Linear(hidden[1], self.num_actions)
            self.log_std_parameter = nn.Parameter(torch.full(size=(self.num_actions,), fill_value=float(initial_log_std)), requires_grad=not fixed_log_std)

        def compute(self, inputs, role=""):
            net = self.net_container(inputs["states"])
            output = self.output_layer(net)
            return output, self.log_std_parameter, {}

    return GaussianModel(observation_space, action_space, device, clip_actions, clip_log_std, min_log_std,
                         max_log_std, reduction)


class ReachEnv:
    """3-D reaching: state = (hand, goal), action = hand displacement, reward = -distance after the move."""

    def reset(self, n):
        self.hand = rng.uniform(-1, 1, (n, 3)).astype(np.float32)
        self.goal = rng.uniform(-1, 1, (n, 3)).astype(np.float32)
        return torch.from_numpy(np.concatenate([self.hand, self.goal], 1))

    def step(self, actions):
        self.hand = self.hand + np.clip(actions, -0.3, 0.3)
        return -np.linalg.norm(self.goal - self.hand, axis=1).astype(np.float32)


policy = gaussian_model(observation_space=6, action_space=3, device="cpu", hidden=(32, 32))
optimizer = torch.optim.Adam(policy.parameters(), lr=3e-3)
env = ReachEnv()
for update in range(60):
    states = env.reset(128)
    with torch.no_grad():
        actions, old_log_prob, _ = policy.act({"states": states})
    rewards = torch.from_numpy(env.step(actions.numpy()))
    advantages = (rewards - rewards.mean()) / (rewards.std() + 1e-8)
    for _ in range(4):
        _, log_prob, _ = policy.act({"states": states, "taken_actions": actions})
        ratio = torch.exp(log_prob.squeeze(-1) - old_log_prob.squeeze(-1))
        loss = -torch.min(ratio * advantages, torch.clamp(ratio, 0.8, 1.2) * advantages).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    if update % 20 == 0:
        print(f"update {update}: mean reward {rewards.mean().item():.3f}, log_std {policy.log_std_parameter.data.tolist()}")
print(f"final mean reward {rewards.mean().item():.3f}")

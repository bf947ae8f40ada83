"""TorchRL-PPO-tutorial-style setup (GymWrapper, TransformedEnv, ObservationNorm.init_stats re-typed in plain PyTorch) around the reporter's hand-written navigation environment, whose observation (distance to the target, bearing in degrees) and action spaces are int16 Boxes: the wrapper keeps the NumPy dtype, so the random rollouts collected by init_stats are int16 tensors and data.mean(reduce_dim) refuses them before any training starts
source: https://github.com/pytorch/rl/issues/1087
reported-error: "RuntimeError: mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Short" at loc = data.mean(reduce_dim, keepdim=True) in ObservationNorm.init_stats, called as env.transform[0].init_stats(num_iter=1, reduce_dim=0, cat_dim=0) following reinforcement_ppo.py (torch 2.0, torchrl 2023.3.28; observation_space = spaces.Box(low=np.array([-1, -1]), high=np.array([self.max_dis, 360]), dtype=np.int16))
outcome: RuntimeError: mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Short at line 110
root-cause: line 39
expect: DG005
"""
import math

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
np.random.seed(0)


class Box:
    def __init__(self, low, high, dtype):
        self.low, self.high, self.dtype = np.asarray(low, dtype=dtype), np.asarray(high, dtype=dtype), np.dtype(dtype)
        self.shape = self.low.shape

    def sample(self):
        return np.random.randint(self.low, self.high + 1).astype(self.dtype)


class NavigationEnv:
    """Reach a target on a grid: turn (0..3 quarter turns) and move (0..2 cells); integer distance and bearing."""

    def __init__(self, max_dis=30, max_steps=25):
        self.max_dis, self.max_steps = max_dis, max_steps
        self.action_space = {"turn_around": Box([0, 1], [3, 8], np.int16), "move": Box([0, 1], [2, 8], np.int16)}
        self.observation_space = Box([-1, -1], [self.max_dis, 360], np.int16)

    def _obs(self):
        dx, dy = self.target - self.pos
        dist = min(int(round(math.hypot(dx, dy))), self.max_dis)
        bearing = int(math.degrees(math.atan2(dy, dx)) - self.heading) % 360
        return np.array([dist, bearing], dtype=np.int16)  # root-cause

    def reset(self):
        self.pos = np.zeros(2)
        self.heading = 0
        self.target = np.random.randint(-10, 11, size=2).astype(np.float64)
        self.t = 0
        return self._obs()

    def step(self, action):
        self.heading = (self.heading + 90 * int(action["turn_around"][0])) % 360
        rad = math.radians(self.heading)
        before = np.linalg.norm(self.target - self.pos)
        self.pos = self.pos + int(action["move"][0]) * np.array([math.cos(rad), math.sin(rad)])
        after = np.linalg.norm(self.target - self.pos)
        self.t += 1
        done = after < 1.0 or self.t >= self.max_steps
        return self._obs(), float(before - after), done, {}


class GymWrapper:
    """Tensor-in/tensor-out view of the environment, keeping the spec dtypes (as torchrl's GymWrapper does)."""

    def __init__(self, env):
        self.env = env

    def reset(self):
        return {"observation": torch.as_tensor(self.env.reset())}

    def step(self, action):
        obs, reward, done, info = self.env.step({k: v.numpy() for k, v in action.items()})
        return {"observation": torch.as_tensor(obs), "reward": torch.tensor([reward]), "done": torch.tensor([done])}

    def rand_action(self):
        return {k: torch.as_tensor(space.sample()) for k, space in self.env.action_space.items()}

    def rollout(self, max_steps, policy=None):
        td = self.reset()
        obs_list = []
        for _ in range(max_steps):
            obs_list.append(td["observation"])
            action = self.rand_action() if policy is None else policy(td)
            td = self.step(action)
            if td["done"].item():
                td = self.reset()
        return {"observation": torch.stack(obs_list)}


class ObservationNorm:
    def __init__(self, in_keys, standard_normal=True):
        self.in_keys, self.standard_normal = in_keys, standard_normal
        self.loc = self.scale = None
        self.parent = None

    @property
    def initialized(self):
        return self.loc is not None

    def init_stats(self, num_iter, reduce_dim=0, cat_dim=None, key=None):
        if cat_dim is None:
            cat_dim = reduce_dim
        if self.initialized:
            raise RuntimeError(f"Loc/Scale are already initialized: ({self.loc}, {self.scale})")
        key = self.in_keys[0] if key is None else key
        collected_frames = 0
        data = []
        while collected_frames < num_iter:
            tensordict = self.parent.rollout(max_steps=num_iter)
            collected_frames += tensordict[key].shape[0]
            data.append(tensordict[key])
        data = torch.cat(data, cat_dim)  # root-cause-alt
        loc = data.mean(reduce_dim, keepdim=True)  # fails-here
        scale = data.std(reduce_dim, keepdim=True)
        self.loc, self.scale = loc.squeeze(reduce_dim), scale.squeeze(reduce_dim).clamp_min(1e-4)

    def __call__(self, obs):
        return (obs - self.loc) / self.scale


class TransformedEnv:
    def __init__(self, base_env, transform):
        self.base_env, self.transform = base_env, [transform]
        transform.parent = base_env

    def reset(self):
        td = self.base_env.reset()
        td["observation"] = self.transform[0](td["observation"])
        return td

    def step(self, action):
        td = self.base_env.step(action)
        td["observation"] = self.transform[0](td["observation"])
        return td


class Policy(nn.Module):
    def __init__(self, n_obs=2, n_turn=4, n_move=3, hidden=32):
        super().__init__()
        self.n_move = n_move
        self.net = nn.Sequential(nn.Linear(n_obs, hidden), nn.Tanh(), nn.Linear(hidden, n_turn * n_move))

    def forward(self, obs):
        return torch.distributions.Categorical(logits=self.net(obs))

    def to_env_action(self, a):
        return {"turn_around": (a // self.n_move).to(torch.int16).view(1), "move": (a % self.n_move).to(torch.int16).view(1)}


base_env = GymWrapper(NavigationEnv())
env = TransformedEnv(base_env, ObservationNorm(in_keys=["observation"]))
env.transform[0].init_stats(num_iter=200, reduce_dim=0, cat_dim=0)
print("observation loc", env.transform[0].loc, "scale", env.transform[0].scale)

policy = Policy()
optim = torch.optim.Adam(policy.parameters(), lr=3e-3)
for it in range(20):
    td, log_probs, rewards = env.reset(), [], []
    for _ in range(25):
        dist = policy(td["observation"])
        a = dist.sample()
        log_probs.append(dist.log_prob(a))
        td = env.step(policy.to_env_action(a))
        rewards.append(td["reward"].item())
        if td["done"].item():
            break
    returns = torch.tensor(np.cumsum(rewards[::-1])[::-1].copy(), dtype=torch.float32)
    loss = -(torch.stack(log_probs) * (returns - returns.mean())).sum()
    optim.zero_grad()
    loss.backward()
    optim.step()
    if it % 5 == 0:
        print(f"iteration {it}: return {sum(rewards):.2f}")

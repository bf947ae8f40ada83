"""A stable-baselines3-style PPO (re-typed: get_schedule_fn, update_learning_rate, the zip save and load_from_zip_file) trained on a small pendulum with a warm-up + cosine learning-rate schedule written with NumPy: the schedule returns numpy.float64, get_schedule_fn passes the callable through unchanged, so the optimizer's param_groups hold a NumPy scalar, policy.optimizer.pth pickles it and PPO.load's weights-only torch.load refuses it
source: https://github.com/DLR-RM/stable-baselines3/issues/1900
reported-error: _pickle.UnpicklingError: Weights only load failed ... (PPO("MlpPolicy", "Pendulum-v1", learning_rate=lambda _: np.sin(1.0)).save(path); PPO.load(path) fails in load_from_zip_file's th.load(file_content, map_location=device, weights_only=True): the learning_rate function returns a NumPy type that is not an allowed type for the weights-only unpickler)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray.scalar was not an allowed global by default. ... at line 60
root-cause: line 33
expect: DG011
"""
import io
import json
import os
import tempfile
import zipfile

import numpy as np
import torch as th
import torch.nn as nn


# ---- stable_baselines3/common/utils.py (re-typed) -------------------------------------------
def constant_fn(val):
    def func(_):
        return val

    return func


def get_schedule_fn(value_schedule):
    """Transform (if needed) learning rate and clip range (for PPO) to callable."""
    if isinstance(value_schedule, (float, int)):
        value_schedule = constant_fn(float(value_schedule))
    else:
        assert callable(value_schedule)
    return value_schedule  # root-cause


def update_learning_rate(optimizer, learning_rate):
    for param_group in optimizer.param_groups:
        param_group["lr"] = learning_rate


# ---- stable_baselines3/common/save_util.py (re-typed) ---------------------------------------
def save_to_zip_file(save_path, data, params):
    with zipfile.ZipFile(save_path, mode="w") as archive:
        archive.writestr("data", json.dumps(data))
        for file_name, dict_ in params.items():
            with archive.open(file_name + ".pth", mode="w", force_zip64=True) as param_file:
                th.save(dict_, param_file)


def load_from_zip_file(load_path, device="cpu"):
    params = {}
    with zipfile.ZipFile(load_path) as archive:
        data = json.loads(archive.read("data").decode())
        pth_files = [name for name in archive.namelist() if os.path.splitext(name)[1] == ".pth"]
        for file_path in pth_files:
            with archive.open(file_path, mode="r") as param_file:
                file_content = io.BytesIO()
                file_content.write(param_file.read())
                file_content.seek(0)
                th_object = th.load(file_content, map_location=device, weights_only=True)  # fails-here
                params[os.path.splitext(file_path)[0]] = th_object
    return data, params


# ---- a small pendulum (gymnasium's Pendulum-v1 dynamics, NumPy) -----------------------------
class Pendulum:
    max_speed, max_torque, dt, g, m, l = 8.0, 2.0, 0.05, 10.0, 1.0, 1.0

    def __init__(self, seed=0):
        self.rng = np.random.default_rng(seed)

    def reset(self):
        self.state = self.rng.uniform([-np.pi, -1.0], [np.pi, 1.0])
        self.t = 0
        return self._obs()

    def _obs(self):
        th_, thdot = self.state
        return np.array([np.cos(th_), np.sin(th_), thdot])

    def step(self, u):
        th_, thdot = self.state
        u = float(np.clip(u, -self.max_torque, self.max_torque))
        cost = ((th_ + np.pi) % (2 * np.pi) - np.pi) ** 2 + 0.1 * thdot**2 + 0.001 * u**2
        thdot = np.clip(thdot + (3 * self.g / (2 * self.l) * np.sin(th_) + 3.0 / (self.m * self.l**2) * u) * self.dt,
                        -self.max_speed, self.max_speed)
        self.state = np.array([th_ + thdot * self.dt, thdot])
        self.t += 1
        return self._obs(), -cost, self.t >= 100


# ---- policy and PPO (re-typed, reduced) --------------------------------------------------
class ActorCriticPolicy(nn.Module):
    def __init__(self, obs_dim, act_dim, lr_schedule):
        super().__init__()
        self.pi = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, act_dim))
        self.vf = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, 1))
        self.log_std = nn.Parameter(th.zeros(act_dim))
        # lr_schedule(1) is the initial learning rate
        self.optimizer = th.optim.Adam(self.parameters(), lr=lr_schedule(1), eps=1e-5)

    def distribution(self, obs):
        return th.distributions.Normal(self.pi(obs), self.log_std.exp())


class PPO:
    def __init__(self, env, learning_rate=3e-4, n_steps=200, batch_size=50, n_epochs=4, gamma=0.99, clip_range=0.2):
        self.env, self.learning_rate = env, learning_rate
        self.n_steps, self.batch_size, self.n_epochs = n_steps, batch_size, n_epochs
        self.gamma, self.clip_range = gamma, clip_range
        self.num_timesteps = 0
        self._current_progress_remaining = 1.0
        self._setup_model()

    def _setup_model(self):
        self.lr_schedule = get_schedule_fn(self.learning_rate)
        self.policy = ActorCriticPolicy(3, 1, self.lr_schedule)

    def _update_learning_rate(self, optimizer):
        update_learning_rate(optimizer, self.lr_schedule(self._current_progress_remaining))

    def collect_rollouts(self):
        obs_buf, act_buf, logp_buf, rew_buf, done_buf = [], [], [], [], []
        obs = self.env.reset() if self.num_timesteps == 0 or self._last_done else self._last_obs
        for _ in range(self.n_steps):
            obs_t = th.as_tensor(obs).float()
            with th.no_grad():
                dist = self.policy.distribution(obs_t)
                action = dist.sample()
            next_obs, reward, done = self.env.step(action.item())
            obs_buf.append(obs_t)
            act_buf.append(action)
            logp_buf.append(dist.log_prob(action).sum())
            rew_buf.append(reward)
            done_buf.append(done)
            obs = self.env.reset() if done else next_obs
            self.num_timesteps += 1
        self._last_obs, self._last_done = obs, done_buf[-1]
        returns, ret = [], 0.0
        for r, d in zip(reversed(rew_buf), reversed(done_buf)):
            ret = r + self.gamma * ret * (1.0 - d)
            returns.append(ret)
        returns = th.as_tensor(np.array(returns[::-1]), dtype=th.float32)
        return th.stack(obs_buf), th.stack(act_buf), th.stack(logp_buf), returns

    def train(self, rollout):
        self._update_learning_rate(self.policy.optimizer)
        obs, actions, old_logp, returns = rollout
        returns = (returns - returns.mean()) / (returns.std() + 1e-8)
        for _ in range(self.n_epochs):
            for idx in th.randperm(len(obs)).split(self.batch_size):
                values = self.policy.vf(obs[idx]).squeeze(-1)
                adv = returns[idx] - values.detach()
                logp = self.policy.distribution(obs[idx]).log_prob(actions[idx]).sum(-1)
                ratio = th.exp(logp - old_logp[idx])
                pg_loss = -th.min(adv * ratio, adv * th.clamp(ratio, 1 - self.clip_range, 1 + self.clip_range)).mean()
                loss = pg_loss + 0.5 * ((returns[idx] - values) ** 2).mean()
                self.policy.optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(self.policy.parameters(), 0.5)
                self.policy.optimizer.step()
        return loss.item()

    def learn(self, total_timesteps):
        while self.num_timesteps < total_timesteps:
            rollout = self.collect_rollouts()
            self._current_progress_remaining = 1.0 - float(self.num_timesteps) / float(total_timesteps)
            loss = self.train(rollout)
            print(f"steps {self.num_timesteps}: loss {loss:.3f}, lr {self.policy.optimizer.param_groups[0]['lr']:.2e}")
        return self

    def save(self, path):
        data = {"n_steps": self.n_steps, "batch_size": self.batch_size, "n_epochs": self.n_epochs,
                "gamma": self.gamma, "clip_range": self.clip_range, "num_timesteps": self.num_timesteps}
        params = {"policy": self.policy.state_dict(), "policy.optimizer": self.policy.optimizer.state_dict()}
        save_to_zip_file(path, data, params)

    @classmethod
    def load(cls, path, env, learning_rate):
        data, params = load_from_zip_file(path)
        model = cls(env, learning_rate=learning_rate, **{k: v for k, v in data.items() if k != "num_timesteps"})
        model.policy.load_state_dict(params["policy"])
        model.policy.optimizer.load_state_dict(params["policy.optimizer"])
        model.num_timesteps = data["num_timesteps"]
        return model


def warmup_cosine(progress_remaining):
    """10% linear warm-up, then cosine decay to 0 (progress_remaining goes from 1 to 0)."""
    progress = 1.0 - progress_remaining
    warm = np.clip((progress + 0.02) / 0.1, 0.0, 1.0)
    return 1e-5 + 2.9e-4 * warm * 0.5 * (1.0 + np.cos(np.pi * progress))  # root-cause-alt


th.manual_seed(0)
model = PPO(Pendulum(seed=0), learning_rate=warmup_cosine)
model.learn(total_timesteps=1000)
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "ppo_pendulum.zip")
    model.save(path)
    loaded = PPO.load(path, Pendulum(seed=1), learning_rate=warmup_cosine)
    print("reloaded at", loaded.num_timesteps, "steps")

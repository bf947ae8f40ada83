"""Continuous control with Stable-Baselines3 SAC (DLR-RM/stable-baselines3: common/buffers.py's ReplayBuffer, common/policies.py's ContinuousCritic, sac/policies.py's Actor, sac/sac.py's train) on an environment whose action space is a float64 Box (envpool's HalfCheetah-v3 in the report; here a point-mass reacher written the same way), stable-baselines3 issue #1145: the ReplayBuffer stores actions with the action space's dtype, so the sampled actions come out float64 and the critic's torch.cat of float32 observations and float64 actions reaches the first Linear as Double
source: https://github.com/DLR-RM/stable-baselines3/issues/1145
reported-error: RuntimeError: mat1 and mat2 must have the same dtype (SAC train: current_q_values = self.critic(replay_data.observations, replay_data.actions); fixed by pull request #1572, which casts the replay buffer's actions to float32)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 116
root-cause: line 65
expect: DG004
"""
import numpy as np

import torch as th
import torch.nn as nn
import torch.nn.functional as F


# ---- gym.spaces.Box (re-typed: gym is not installed)
class Box:
    def __init__(self, low, high, shape, dtype=np.float32):
        self.low = np.full(shape, low, dtype=dtype)
        self.high = np.full(shape, high, dtype=dtype)
        self.shape = shape
        self.dtype = np.dtype(dtype)
        self._rng = np.random.default_rng(0)

    def sample(self):
        return self._rng.uniform(self.low, self.high).astype(self.dtype)


# ---- the user's environment: actions declared float64 as envpool's MuJoCo tasks do
class PointReacherEnv:
    def __init__(self, seed=0):
        self.observation_space = Box(-np.inf, np.inf, (4,), dtype=np.float32)
        self.action_space = Box(-1.0, 1.0, (2,), dtype=np.float64)
        self.rng = np.random.default_rng(seed)

    def reset(self):
        self.pos = self.rng.uniform(-1, 1, 2)
        self.goal = self.rng.uniform(-1, 1, 2)
        self.t = 0
        return self._obs()

    def _obs(self):
        return np.concatenate([self.pos, self.goal]).astype(np.float32)

    def step(self, action):
        self.pos = np.clip(self.pos + 0.1 * np.asarray(action, dtype=np.float64), -2, 2)
        self.t += 1
        reward = -float(np.linalg.norm(self.pos - self.goal))
        return self._obs(), reward, self.t >= 50, {}


# ---- stable_baselines3/common/buffers.py (reduced: one env, no optimize_memory_usage, no timeouts)
class ReplayBufferSamples:
    def __init__(self, observations, actions, next_observations, dones, rewards):
        self.observations, self.actions = observations, actions
        self.next_observations, self.dones, self.rewards = next_observations, dones, rewards


class ReplayBuffer:
    def __init__(self, buffer_size, observation_space, action_space, device="cpu", n_envs=1):
        self.buffer_size, self.n_envs, self.device = buffer_size, n_envs, device
        self.obs_shape, self.action_dim = observation_space.shape, int(np.prod(action_space.shape))
        self.pos, self.full = 0, False
        self.observations = np.zeros((self.buffer_size, self.n_envs) + self.obs_shape, dtype=observation_space.dtype)
        self.next_observations = np.zeros((self.buffer_size, self.n_envs) + self.obs_shape, dtype=observation_space.dtype)
        self.actions = np.zeros((self.buffer_size, self.n_envs, self.action_dim), dtype=action_space.dtype)  # root-cause
        self.rewards = np.zeros((self.buffer_size, self.n_envs), dtype=np.float32)
        self.dones = np.zeros((self.buffer_size, self.n_envs), dtype=np.float32)

    def add(self, obs, next_obs, action, reward, done):
        self.observations[self.pos] = np.array(obs)
        self.next_observations[self.pos] = np.array(next_obs)
        self.actions[self.pos] = np.array(action)
        self.rewards[self.pos] = np.array(reward)
        self.dones[self.pos] = np.array(done)
        self.pos += 1
        if self.pos == self.buffer_size:
            self.full, self.pos = True, 0

    def sample(self, batch_size):
        upper_bound = self.buffer_size if self.full else self.pos
        batch_inds = np.random.randint(0, upper_bound, size=batch_size)
        data = (
            self.observations[batch_inds, 0, :],
            self.actions[batch_inds, 0, :],
            self.next_observations[batch_inds, 0, :],
            self.dones[batch_inds, 0].reshape(-1, 1),
            self.rewards[batch_inds, 0].reshape(-1, 1),
        )
        return ReplayBufferSamples(*tuple(map(self.to_torch, data)))

    def to_torch(self, array, copy=True):
        if copy:
            return th.tensor(array, device=self.device)
        return th.as_tensor(array, device=self.device)


# ---- stable_baselines3/common/policies.py ContinuousCritic and sac/policies.py Actor (reduced)
def create_mlp(input_dim, output_dim, net_arch):
    layers, last = [], input_dim
    for size in net_arch:
        layers += [nn.Linear(last, size), nn.ReLU()]
        last = size
    layers.append(nn.Linear(last, output_dim))
    return layers


class ContinuousCritic(nn.Module):
    def __init__(self, features_dim, action_dim, net_arch=(64, 64), n_critics=2):
        super().__init__()
        self.q_networks = nn.ModuleList([nn.Sequential(*create_mlp(features_dim + action_dim, 1, net_arch))
                                         for _ in range(n_critics)])

    def forward(self, obs, actions):
        features = obs.flatten(1)
        qvalue_input = th.cat([features, actions], dim=1)
        return tuple(q_net(qvalue_input) for q_net in self.q_networks)  # fails-here


class Actor(nn.Module):
    def __init__(self, features_dim, action_dim, net_arch=(64, 64)):
        super().__init__()
        self.latent_pi = nn.Sequential(*create_mlp(features_dim, net_arch[-1], net_arch[:-1]), nn.ReLU())
        self.mu = nn.Linear(net_arch[-1], action_dim)
        self.log_std = nn.Linear(net_arch[-1], action_dim)

    def action_log_prob(self, obs):
        latent = self.latent_pi(obs.flatten(1))
        mean, log_std = self.mu(latent), th.clamp(self.log_std(latent), -20, 2)
        dist = th.distributions.Normal(mean, log_std.exp())
        gaussian_actions = dist.rsample()
        actions = th.tanh(gaussian_actions)
        log_prob = dist.log_prob(gaussian_actions).sum(-1) - th.log(1 - actions ** 2 + 1e-6).sum(-1)
        return actions, log_prob.reshape(-1, 1)


# ---- stable_baselines3/sac/sac.py (reduced: fixed entropy coefficient, one gradient step per env step)
class SAC:
    def __init__(self, env, learning_rate=3e-4, buffer_size=10_000, learning_starts=100, batch_size=64,
                 gamma=0.99, tau=0.005, ent_coef=0.1):
        self.env = env
        obs_dim, act_dim = env.observation_space.shape[0], env.action_space.shape[0]
        self.actor = Actor(obs_dim, act_dim)
        self.critic = ContinuousCritic(obs_dim, act_dim)
        self.critic_target = ContinuousCritic(obs_dim, act_dim)
        self.critic_target.load_state_dict(self.critic.state_dict())
        self.actor_opt = th.optim.Adam(self.actor.parameters(), lr=learning_rate)
        self.critic_opt = th.optim.Adam(self.critic.parameters(), lr=learning_rate)
        self.replay_buffer = ReplayBuffer(buffer_size, env.observation_space, env.action_space)
        self.learning_starts, self.batch_size = learning_starts, batch_size
        self.gamma, self.tau, self.ent_coef = gamma, tau, ent_coef

    def predict(self, obs):
        with th.no_grad():
            actions, _ = self.actor.action_log_prob(th.as_tensor(obs).unsqueeze(0))
        return actions[0].numpy()

    def train(self, gradient_steps=1):
        for _ in range(gradient_steps):
            replay_data = self.replay_buffer.sample(self.batch_size)
            actions_pi, log_prob = self.actor.action_log_prob(replay_data.observations)
            with th.no_grad():
                next_actions, next_log_prob = self.actor.action_log_prob(replay_data.next_observations)
                next_q_values = th.cat(self.critic_target(replay_data.next_observations, next_actions), dim=1)
                next_q_values, _ = th.min(next_q_values, dim=1, keepdim=True)
                next_q_values = next_q_values - self.ent_coef * next_log_prob
                target_q_values = replay_data.rewards + (1 - replay_data.dones) * self.gamma * next_q_values
            current_q_values = self.critic(replay_data.observations, replay_data.actions)
            critic_loss = 0.5 * sum(F.mse_loss(current_q, target_q_values) for current_q in current_q_values)
            self.critic_opt.zero_grad()
            critic_loss.backward()
            self.critic_opt.step()
            q_values_pi = th.cat(self.critic(replay_data.observations, actions_pi), dim=1)
            min_qf_pi, _ = th.min(q_values_pi, dim=1, keepdim=True)
            actor_loss = (self.ent_coef * log_prob - min_qf_pi).mean()
            self.actor_opt.zero_grad()
            actor_loss.backward()
            self.actor_opt.step()
            with th.no_grad():
                for p, tp in zip(self.critic.parameters(), self.critic_target.parameters()):
                    tp.mul_(1 - self.tau).add_(self.tau * p)
        return critic_loss.item()

    def learn(self, total_timesteps):
        obs = self.env.reset()
        for step in range(total_timesteps):
            if step < self.learning_starts:
                action = self.env.action_space.sample()
            else:
                action = self.predict(obs)
            next_obs, reward, done, _ = self.env.step(action)
            self.replay_buffer.add(obs, next_obs, action, reward, done)
            obs = self.env.reset() if done else next_obs
            if step >= self.learning_starts:
                loss = self.train()
                if step % 50 == 0:
                    print("step %d critic loss %.4f" % (step, loss))
        return self


if __name__ == "__main__":
    np.random.seed(0)
    th.manual_seed(0)
    model = SAC(PointReacherEnv(), learning_starts=100)
    model.learn(total_timesteps=300)
    print("done")

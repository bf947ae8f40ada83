"""SAC on a CausalWorld-style "picking" robot environment with Stable-Baselines3 (SB3 issue #675: PPO trains but SAC raises "expected scalar type Float but found Double"; CausalWorld declares its joint-position action space as a float64 gym Box): the off-policy ReplayBuffer stores actions in an array of action_space.dtype, so the sampled actions are float64 tensors, the critic concatenates them to the float32 features and the promoted float64 input meets the float32 Q-network
source: https://github.com/DLR-RM/stable-baselines3/issues/675
reported-error: RuntimeError: expected scalar type Float but found Double (SAC("MlpPolicy", env).learn(...) on CausalWorld(task=generate_task('picking')); PPO on the same env trains without errors)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 210
root-cause: line 44
expect: DG004
"""
import argparse
import warnings
from collections import namedtuple

import numpy as np

import torch as th
import torch.nn as nn
import torch.nn.functional as F


# ---- gym/spaces/box.py (reduced)
class Box:
    def __init__(self, low, high, shape=None, dtype=np.float32):
        self.dtype = np.dtype(dtype)
        shape = shape if shape is not None else np.shape(low)
        self.shape = tuple(shape)
        self.low = np.full(self.shape, low, dtype=self.dtype) if np.isscalar(low) else np.asarray(low, dtype=self.dtype)
        self.high = np.full(self.shape, high, dtype=self.dtype) if np.isscalar(high) else np.asarray(high, dtype=self.dtype)
        self.np_random = np.random.default_rng(0)

    def sample(self):
        return self.np_random.uniform(self.low, self.high, self.shape).astype(self.dtype)


# ---- causal_world/envs/robot/action.py (reduced)
class TriFingerAction:
    def __init__(self, action_mode="joint_positions", normalize_actions=True):
        self.normalize_actions = normalize_actions
        self.max_motor_torque = 0.36
        self.low = np.array([-1.57, -1.2, -3.0] * 3)
        self.high = np.array([1.0, 1.57, 3.0] * 3)
        self.action_mode = action_mode

    def get_action_space(self):
        if self.normalize_actions:
            return Box(low=-np.ones(9), high=np.ones(9), dtype=np.float64)  # root-cause
        return Box(low=self.low, high=self.high, dtype=np.float64)

    def denormalize_action(self, action):
        return self.low + (action + 1.0) / 2.0 * (self.high - self.low)


# ---- causal_world/envs/causalworld.py + task_generators (reduced to a kinematic picking task)
def generate_task(task_generator_id="picking"):
    return {"task_id": task_generator_id, "goal_height": 0.15, "block_size": 0.065}


class CausalWorld:
    def __init__(self, task, skip_frame=10, action_mode="joint_positions", max_episode_length=60, seed=0):
        self.task = task
        self.skip_frame = skip_frame
        self._robot_action = TriFingerAction(action_mode)
        self.action_space = self._robot_action.get_action_space()
        self.observation_space = Box(low=-np.inf * np.ones(33), high=np.inf * np.ones(33), dtype=np.float64)
        self.max_episode_length = max_episode_length
        self.rng = np.random.default_rng(seed)
        self.reset()

    def _obs(self):
        return np.concatenate([self.joint_pos, self.joint_vel, self.block_pos, self.block_orn,
                               self.goal_pos, self.tip_pos[:5]]).astype(np.float64)

    def reset(self):
        self.t = 0
        self.joint_pos = self.rng.uniform(-0.5, 0.5, 9)
        self.joint_vel = np.zeros(9)
        self.block_pos = np.array([0.0, 0.0, self.task["block_size"] / 2])
        self.block_orn = np.array([0.0, 0.0, 0.0, 1.0])
        self.goal_pos = np.array([0.0, 0.0, self.task["goal_height"]])
        self.tip_pos = np.zeros(9)
        return self._obs()

    def step(self, action):
        target = self._robot_action.denormalize_action(np.clip(action, -1, 1))
        for _ in range(self.skip_frame):
            new_pos = self.joint_pos + 0.1 * (target - self.joint_pos)
            self.joint_vel = (new_pos - self.joint_pos) * 100.0
            self.joint_pos = new_pos
        self.tip_pos = np.tanh(self.joint_pos) * 0.1
        grip = np.exp(-np.sum((self.tip_pos.reshape(3, 3).mean(0) - self.block_pos) ** 2) * 50)
        self.block_pos[2] = max(self.task["block_size"] / 2, self.block_pos[2] + 0.01 * (grip - 0.5))
        reward = -abs(self.block_pos[2] - self.goal_pos[2]) + 0.1 * grip
        self.t += 1
        done = self.t >= self.max_episode_length
        return self._obs(), float(reward), done, {"success": bool(abs(self.block_pos[2] - self.goal_pos[2]) < 0.02)}


# ---- stable_baselines3/common/env_checker.py (the float32 warning only)
def check_env(env):
    if env.action_space.dtype != np.dtype(np.float32):
        warnings.warn("Your action space has dtype {}, we recommend using np.float32 to avoid cast errors."
                      .format(env.action_space.dtype), UserWarning)


# ---- stable_baselines3/common/buffers.py
ReplayBufferSamples = namedtuple("ReplayBufferSamples",
                                 ["observations", "actions", "next_observations", "dones", "rewards"])


class ReplayBuffer:
    def __init__(self, buffer_size, observation_space, action_space, device="cpu", n_envs=1):
        self.buffer_size = buffer_size
        self.obs_shape = observation_space.shape
        self.action_dim = int(np.prod(action_space.shape))
        self.device = device
        self.n_envs = n_envs
        self.pos = 0
        self.full = False
        self.observations = np.zeros((self.buffer_size, self.n_envs) + self.obs_shape, dtype=observation_space.dtype)
        self.next_observations = np.zeros((self.buffer_size, self.n_envs) + self.obs_shape, dtype=observation_space.dtype)
        self.actions = np.zeros((self.buffer_size, self.n_envs, self.action_dim), dtype=action_space.dtype)
        self.rewards = np.zeros((self.buffer_size, self.n_envs), dtype=np.float32)
        self.dones = np.zeros((self.buffer_size, self.n_envs), dtype=np.float32)

    def add(self, obs, next_obs, action, reward, done):
        self.observations[self.pos] = np.array(obs).copy()
        self.next_observations[self.pos] = np.array(next_obs).copy()
        self.actions[self.pos] = np.array(action).copy()
        self.rewards[self.pos] = np.array(reward).copy()
        self.dones[self.pos] = np.array(done).copy()
        self.pos += 1
        if self.pos == self.buffer_size:
            self.full = True
            self.pos = 0

    def size(self):
        return self.buffer_size if self.full else self.pos

    def to_torch(self, array, copy=True):
        if copy:
            return th.tensor(array).to(self.device)
        return th.as_tensor(array).to(self.device)

    def sample(self, batch_size):
        batch_inds = np.random.randint(0, self.size(), size=batch_size)
        data = (
            self.observations[batch_inds, 0, :],
            self.actions[batch_inds, 0, :],
            self.next_observations[batch_inds, 0, :],
            self.dones[batch_inds].reshape(-1, 1),
            self.rewards[batch_inds].reshape(-1, 1),
        )
        return ReplayBufferSamples(*tuple(map(self.to_torch, data)))


# ---- stable_baselines3/common/preprocessing.py + torch_layers.py
def preprocess_obs(obs, observation_space):
    if isinstance(observation_space, Box):
        return obs.float()
    raise NotImplementedError


def create_mlp(input_dim, output_dim, net_arch, activation_fn=nn.ReLU):
    modules = []
    last = input_dim
    for size in net_arch:
        modules += [nn.Linear(last, size), activation_fn()]
        last = size
    if output_dim > 0:
        modules.append(nn.Linear(last, output_dim))
    return modules


# ---- stable_baselines3/sac/policies.py (reduced)
LOG_STD_MAX, LOG_STD_MIN = 2, -20


class Actor(nn.Module):
    def __init__(self, observation_space, action_space, net_arch):
        super().__init__()
        self.observation_space = observation_space
        features_dim = int(np.prod(observation_space.shape))
        action_dim = int(np.prod(action_space.shape))
        self.latent_pi = nn.Sequential(*create_mlp(features_dim, -1, net_arch))
        self.mu = nn.Linear(net_arch[-1], action_dim)
        self.log_std = nn.Linear(net_arch[-1], action_dim)

    def action_log_prob(self, obs):
        latent_pi = self.latent_pi(preprocess_obs(obs, self.observation_space).flatten(1))
        mean_actions = self.mu(latent_pi)
        log_std = th.clamp(self.log_std(latent_pi), LOG_STD_MIN, LOG_STD_MAX)
        gaussian = th.distributions.Normal(mean_actions, log_std.exp())
        gaussian_actions = gaussian.rsample()
        actions = th.tanh(gaussian_actions)
        log_prob = gaussian.log_prob(gaussian_actions).sum(dim=1)
        log_prob -= th.sum(th.log(1 - actions ** 2 + 1e-6), dim=1)
        return actions, log_prob


class ContinuousCritic(nn.Module):
    def __init__(self, observation_space, action_space, net_arch, n_critics=2):
        super().__init__()
        self.observation_space = observation_space
        features_dim = int(np.prod(observation_space.shape))
        action_dim = int(np.prod(action_space.shape))
        self.q_networks = nn.ModuleList(
            [nn.Sequential(*create_mlp(features_dim + action_dim, 1, net_arch)) for _ in range(n_critics)])

    def forward(self, obs, actions):
        features = preprocess_obs(obs, self.observation_space).flatten(1)
        qvalue_input = th.cat([features, actions], dim=1)
        return tuple(q_net(qvalue_input) for q_net in self.q_networks)  # fails-here


class SACPolicy(nn.Module):
    def __init__(self, observation_space, action_space, lr, net_arch=(64, 64)):
        super().__init__()
        self.actor = Actor(observation_space, action_space, list(net_arch))
        self.critic = ContinuousCritic(observation_space, action_space, list(net_arch))
        self.critic_target = ContinuousCritic(observation_space, action_space, list(net_arch))
        self.critic_target.load_state_dict(self.critic.state_dict())
        self.actor.optimizer = th.optim.Adam(self.actor.parameters(), lr=lr)
        self.critic.optimizer = th.optim.Adam(self.critic.parameters(), lr=lr)

    def predict(self, observation):
        with th.no_grad():
            obs = th.as_tensor(observation).reshape(1, -1)
            actions, _ = self.actor.action_log_prob(obs)
        return actions.cpu().numpy()[0]


# ---- stable_baselines3/sac/sac.py (reduced)
def polyak_update(params, target_params, tau):
    with th.no_grad():
        for param, target_param in zip(params, target_params):
            target_param.data.mul_(1 - tau)
            th.add(target_param.data, param.data, alpha=tau, out=target_param.data)


class SAC:
    def __init__(self, policy, env, learning_rate=3e-4, buffer_size=10_000, learning_starts=100, batch_size=32,
                 tau=0.005, gamma=0.99, ent_coef=0.2, verbose=0):
        assert policy == "MlpPolicy"
        self.env = env
        self.observation_space, self.action_space = env.observation_space, env.action_space
        self.policy = SACPolicy(self.observation_space, self.action_space, learning_rate)
        self.actor, self.critic, self.critic_target = self.policy.actor, self.policy.critic, self.policy.critic_target
        self.replay_buffer = ReplayBuffer(buffer_size, self.observation_space, self.action_space)
        self.learning_starts, self.batch_size = learning_starts, batch_size
        self.tau, self.gamma, self.ent_coef = tau, gamma, ent_coef
        self.verbose = verbose
        self.num_timesteps = 0

    def _sample_action(self, obs):
        if self.num_timesteps < self.learning_starts:
            return self.action_space.sample()
        return self.policy.predict(obs)

    def train(self, gradient_steps):
        for _ in range(gradient_steps):
            replay_data = self.replay_buffer.sample(self.batch_size)
            actions_pi, log_prob = self.actor.action_log_prob(replay_data.observations)
            with th.no_grad():
                next_actions, next_log_prob = self.actor.action_log_prob(replay_data.next_observations)
                next_q_values = th.cat(self.critic_target(replay_data.next_observations, next_actions), dim=1)
                next_q_values, _ = th.min(next_q_values, dim=1, keepdim=True)
                next_q_values = next_q_values - self.ent_coef * next_log_prob.reshape(-1, 1)
                target_q_values = replay_data.rewards + (1 - replay_data.dones) * self.gamma * next_q_values
            current_q_values = self.critic(replay_data.observations, replay_data.actions)
            critic_loss = 0.5 * sum(F.mse_loss(current_q, target_q_values) for current_q in current_q_values)
            self.critic.optimizer.zero_grad()
            critic_loss.backward()
            self.critic.optimizer.step()

            q_values_pi = th.cat(self.critic(replay_data.observations, actions_pi), dim=1)
            min_qf_pi, _ = th.min(q_values_pi, dim=1, keepdim=True)
            actor_loss = (self.ent_coef * log_prob - min_qf_pi).mean()
            self.actor.optimizer.zero_grad()
            actor_loss.backward()
            self.actor.optimizer.step()
            polyak_update(self.critic.parameters(), self.critic_target.parameters(), self.tau)
        return float(critic_loss), float(actor_loss)

    def learn(self, total_timesteps, train_freq=1, gradient_steps=1):
        obs = self.env.reset()
        episode_reward, episodes = 0.0, 0
        while self.num_timesteps < total_timesteps:
            action = self._sample_action(obs)
            new_obs, reward, done, info = self.env.step(action)
            self.num_timesteps += 1
            episode_reward += reward
            self.replay_buffer.add(obs, new_obs, action, reward, done)
            obs = new_obs
            if done:
                episodes += 1
                if self.verbose:
                    print("episode {} reward {:.3f} success {}".format(episodes, episode_reward, info["success"]))
                obs, episode_reward = self.env.reset(), 0.0
            if self.num_timesteps > self.learning_starts and self.num_timesteps % train_freq == 0:
                self.train(gradient_steps)
        return self


# ---- the reporter's train script
def train(args):
    task = generate_task(task_generator_id="picking")
    env = CausalWorld(task=task)

    ###### sb3 check env
    check_env(env)

    if args.rl_algo == "sac":
        model = SAC("MlpPolicy", env, verbose=1)
    else:
        raise ValueError(args.rl_algo)
    model.learn(total_timesteps=args.timesteps)
    print("trained", args.rl_algo, "for", args.timesteps, "timesteps")


if __name__ == "__main__":
    warnings.simplefilter("ignore", UserWarning)
    parser = argparse.ArgumentParser()
    parser.add_argument("--rl_algo", default="sac")
    parser.add_argument("--timesteps", type=int, default=150)
    th.manual_seed(0)
    np.random.seed(0)
    train(parser.parse_args())

"""AgileRL-style DDPG (DeterministicActor with a Tanh head and rescale_action, ContinuousQNetwork, multi_dim_clamp, target policy noise, soft updates; re-typed) on a hand-written pendulum whose Box action space is declared float64: the actor keeps the bounds as torch.as_tensor(action_space.low/high), so rescale_action returns float64 actions; the replay buffer stores them as float32, but in learn() the target actor's float64 actions are concatenated with the float32 observation features inside the target critic, whose float32 head then refuses the float64 input
source: https://github.com/AgileRL/AgileRL/pull/425
reported-error: "Fix issue in DeterministicActor where action spaces with dtype other than float32 raised an error." (PR #425, AgileRL 2.x: DeterministicActor.rescale_action now returns rescaled_action.to(action.dtype), StochasticActor builds action_low/action_high with dtype=torch.float32)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 96
root-cause: line 76
expect: DG004
"""
import copy

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
np.random.seed(0)


class Box:
    def __init__(self, low, high, shape, dtype=np.float32):
        self.low = np.full(shape, low, dtype=dtype)
        self.high = np.full(shape, high, dtype=dtype)
        self.shape, self.dtype = shape, np.dtype(dtype)


class PendulumEnv:
    """Inverted pendulum swing-up (a few lines of the classic dynamics)."""

    def __init__(self, max_steps=50):
        self.max_speed, self.max_torque, self.dt, self.g, self.m, self.l = 8.0, 2.0, 0.05, 10.0, 1.0, 1.0
        self.max_steps = max_steps
        self.observation_space = Box(-8.0, 8.0, (3,), np.float32)
        self.action_space = Box(-self.max_torque, self.max_torque, (1,), np.float64)

    def _obs(self):
        th, thdot = self.state
        return np.array([np.cos(th), np.sin(th), thdot], dtype=np.float32)

    def reset(self):
        self.state = np.random.uniform(low=[-np.pi, -1.0], high=[np.pi, 1.0])
        self.t = 0
        return self._obs()

    def step(self, u):
        th, thdot = self.state
        u = float(np.clip(u, -self.max_torque, self.max_torque)[0])
        norm_th = ((th + np.pi) % (2 * np.pi)) - np.pi
        cost = norm_th ** 2 + 0.1 * thdot ** 2 + 0.001 * u ** 2
        thdot = np.clip(thdot + (3 * self.g / (2 * self.l) * np.sin(th) + 3.0 / (self.m * self.l ** 2) * u) * self.dt,
                        -self.max_speed, self.max_speed)
        self.state = np.array([th + thdot * self.dt, thdot])
        self.t += 1
        return self._obs(), -cost, self.t >= self.max_steps, {}


class DeterministicActor(nn.Module):
    def __init__(self, observation_space, action_space, latent_dim=32, hidden=32):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(observation_space.shape[0], latent_dim), nn.ReLU())
        self.head_net = nn.Sequential(nn.Linear(latent_dim, hidden), nn.ReLU(), nn.Linear(hidden, action_space.shape[0]),
                                      nn.Tanh())
        self.output_activation = "Tanh"
        self.action_low, self.action_high = torch.as_tensor(action_space.low), torch.as_tensor(action_space.high)  # root-cause-alt

    @staticmethod
    def rescale_action(action, low, high, output_activation=None):
        if output_activation in ["Tanh", "Softsign"]:
            prescaled_min, prescaled_max = -1.0, 1.0
        elif output_activation in ["Sigmoid", "Softmax", "GumbelSoftmax"]:
            prescaled_min, prescaled_max = 0.0, 1.0
        else:
            return action
        if low.isinf().any() or high.isinf().any():
            rescaled_action = action
        else:
            rescaled_action = low + (high - low) * (action - prescaled_min) / (prescaled_max - prescaled_min)
        return rescaled_action  # root-cause

    def forward(self, obs):
        action = self.head_net(self.encoder(obs))
        return self.rescale_action(action, self.action_low, self.action_high, self.output_activation)


class ContinuousQNetwork(nn.Module):
    def __init__(self, observation_space, action_space, latent_dim=32, hidden=32):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(observation_space.shape[0], latent_dim), nn.ReLU())
        self.head_net = nn.Sequential(nn.Linear(latent_dim + action_space.shape[0], hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, obs, actions):
        if not isinstance(actions, torch.Tensor):
            actions = torch.as_tensor(actions, dtype=torch.float32)
        if len(actions.shape) == 1:
            actions = actions.unsqueeze(0)
        latent = self.encoder(obs)
        x = torch.cat([latent, actions], dim=-1)
        return self.head_net(x)  # fails-here


class ReplayBuffer:
    def __init__(self, size, obs_dim, action_dim):
        self.obs = np.zeros((size, obs_dim), dtype=np.float32)
        self.next_obs = np.zeros((size, obs_dim), dtype=np.float32)
        self.action = np.zeros((size, action_dim), dtype=np.float32)
        self.reward = np.zeros((size, 1), dtype=np.float32)
        self.done = np.zeros((size, 1), dtype=np.float32)
        self.size, self.n = size, 0

    def add(self, obs, action, reward, next_obs, done):
        i = self.n % self.size
        self.obs[i], self.action[i], self.reward[i], self.next_obs[i], self.done[i] = obs, action, reward, next_obs, done
        self.n += 1

    def sample(self, batch_size):
        idx = np.random.randint(0, min(self.n, self.size), size=batch_size)
        return {k: torch.from_numpy(getattr(self, k)[idx]) for k in ("obs", "action", "reward", "next_obs", "done")}


class DDPG:
    def __init__(self, observation_space, action_space, gamma=0.99, tau=0.005, lr_actor=1e-3, lr_critic=1e-3,
                 expl_noise=0.1, policy_freq=2):
        self.observation_space, self.action_space = observation_space, action_space
        self.gamma, self.tau, self.expl_noise, self.policy_freq = gamma, tau, expl_noise, policy_freq
        self.action_dim = action_space.shape[0]
        self.actor = DeterministicActor(observation_space, action_space)
        self.critic = ContinuousQNetwork(observation_space, action_space)
        self.actor_target, self.critic_target = copy.deepcopy(self.actor), copy.deepcopy(self.critic)
        self.actor_optimizer = torch.optim.Adam(self.actor.parameters(), lr=lr_actor)
        self.critic_optimizer = torch.optim.Adam(self.critic.parameters(), lr=lr_critic)
        self.criterion = nn.MSELoss()
        self.learn_counter = 0

    def preprocess_observation(self, obs):
        return torch.as_tensor(obs, dtype=torch.float32)

    def action_noise(self):
        return np.random.normal(0.0, self.expl_noise, size=(1, self.action_dim)).astype(np.float32)

    def get_action(self, obs, training=True):
        obs = self.preprocess_observation(obs).unsqueeze(0)
        with torch.no_grad():
            action = self.actor(obs)
        action = action.cpu().data.numpy()
        if training:
            action += self.action_noise()
        return action.clip(self.action_space.low, self.action_space.high)

    def multi_dim_clamp(self, min, max, input):
        if not isinstance(min, np.ndarray) and not isinstance(max, np.ndarray):
            return torch.clamp(input, min, max)
        min = torch.from_numpy(min) if isinstance(min, np.ndarray) else min
        max = torch.from_numpy(max) if isinstance(max, np.ndarray) else max
        return torch.max(torch.min(input, max), min).type(input.dtype)

    def soft_update(self, net, target):
        for eval_param, target_param in zip(net.parameters(), target.parameters()):
            target_param.data.copy_(self.tau * eval_param.data + (1.0 - self.tau) * target_param.data)

    def learn(self, experiences, noise_clip=0.5, policy_noise=0.2):
        obs, actions, rewards = experiences["obs"], experiences["action"], experiences["reward"]
        next_obs, dones = experiences["next_obs"], experiences["done"]
        q_value = self.critic(obs, actions)
        with torch.no_grad():
            next_actions = self.actor_target(next_obs)
            noise = torch.randn_like(actions) * policy_noise
            noise = self.multi_dim_clamp(-noise_clip, noise_clip, noise)
            next_actions = next_actions + noise
            next_actions = self.multi_dim_clamp(self.action_space.low, self.action_space.high, next_actions)
            q_value_next_state = self.critic_target(next_obs, next_actions)
        y_j = rewards + ((1 - dones) * self.gamma * q_value_next_state)
        critic_loss = self.criterion(q_value, y_j)
        self.critic_optimizer.zero_grad()
        critic_loss.backward()
        self.critic_optimizer.step()
        self.learn_counter += 1
        actor_loss = None
        if self.learn_counter % self.policy_freq == 0:
            actor_loss = -self.critic(obs, self.actor(obs)).mean()
            self.actor_optimizer.zero_grad()
            actor_loss.backward()
            self.actor_optimizer.step()
            self.soft_update(self.actor, self.actor_target)
            self.soft_update(self.critic, self.critic_target)
        return critic_loss.item(), (actor_loss.item() if actor_loss is not None else None)


env = PendulumEnv()
agent = DDPG(env.observation_space, env.action_space)
memory = ReplayBuffer(5000, env.observation_space.shape[0], env.action_space.shape[0])
for episode in range(6):
    obs, done, score = env.reset(), False, 0.0
    while not done:
        action = agent.get_action(obs)[0]
        next_obs, reward, done, _ = env.step(action)
        memory.add(obs, action, reward, next_obs, float(done))
        score += reward
        obs = next_obs
        if memory.n >= 64:
            critic_loss, actor_loss = agent.learn(memory.sample(64))
    print(f"episode {episode}: return {score:.1f} critic loss {critic_loss if memory.n >= 64 else float('nan'):.3f}")

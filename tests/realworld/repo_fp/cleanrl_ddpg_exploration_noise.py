"""CleanRL DDPG/TD3: exploration noise drawn with torch.normal(0, <the actor's buffer> * noise scale)

source: https://github.com/vwxyzjn/cleanrl/blob/fe8d8a03c41a7ef5b523e2e354bd01c363e786bb/cleanrl/ddpg_continuous_action.py#L179
(the same line: https://github.com/vwxyzjn/cleanrl/blob/fe8d8a03c41a7ef5b523e2e354bd01c363e786bb/cleanrl/td3_continuous_action.py#L203)
false-alarm: DG009 at line 125: `actions += torch.normal(0, actor.action_scale * args.exploration_noise)`
uses the overload normal(float mean, Tensor std), whose result is on std's device; action_scale is a
registered buffer of the actor, moved with it by .to(device), so the noise is on the actions' device
(CUDA on a GPU run), not on the default device. Only flagged while the noise scale comes from the CLI
(a literal 0.1 is not flagged).
"""
# Reduction: gymnasium's vector env is replaced by a toy continuous-control env with Box-like spaces,
# the replay buffer by a list, tyro.cli(Args) by an argparse stand-in (the CLI makes exploration_noise a
# value the analysis does not know, as in the original); the DDPG update is kept.
import argparse
import random
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim


@dataclass
class Args:
    seed: int = 1
    cuda: bool = True
    total_timesteps: int = 60
    learning_rate: float = 3e-4
    gamma: float = 0.99
    tau: float = 0.005
    batch_size: int = 8
    exploration_noise: float = 0.1
    learning_starts: int = 20
    policy_frequency: int = 2


def tyro_cli(config_class):
    """Stands in for tyro.cli(Args): each dataclass field becomes a command-line option."""
    parser = argparse.ArgumentParser()
    for name, field in config_class.__dataclass_fields__.items():
        parser.add_argument(f"--{name.replace('_', '-')}", type=type(field.default), default=field.default)
    return parser.parse_args()


class Box:
    def __init__(self, low, high):
        self.low, self.high = np.asarray(low, dtype=np.float32), np.asarray(high, dtype=np.float32)
        self.shape = self.low.shape

    def sample(self):
        return np.random.uniform(self.low, self.high).astype(np.float32)


class ToyVecEnv:
    """Stands in for gym.vector.SyncVectorEnv with one continuous-control env."""

    num_envs = 1
    single_observation_space = Box([-1.0] * 3, [1.0] * 3)
    single_action_space = Box([-2.0], [2.0])
    action_space = Box([[-2.0]], [[2.0]])

    def reset(self, seed=None):
        return np.random.randn(1, 3).astype(np.float32), {}

    def step(self, actions):
        obs = np.random.randn(1, 3).astype(np.float32)
        return obs, -np.square(actions).sum(1), np.zeros(1, dtype=bool), np.zeros(1, dtype=bool), {}


class QNetwork(nn.Module):
    def __init__(self, env):
        super().__init__()
        self.fc1 = nn.Linear(np.array(env.single_observation_space.shape).prod() + np.prod(env.single_action_space.shape), 32)
        self.fc2 = nn.Linear(32, 1)

    def forward(self, x, a):
        return self.fc2(F.relu(self.fc1(torch.cat([x, a], 1))))


class Actor(nn.Module):
    def __init__(self, env):
        super().__init__()
        self.fc1 = nn.Linear(np.array(env.single_observation_space.shape).prod(), 32)
        self.fc_mu = nn.Linear(32, np.prod(env.single_action_space.shape))
        # action rescaling
        self.register_buffer(
            "action_scale", torch.tensor((env.action_space.high - env.action_space.low) / 2.0, dtype=torch.float32)
        )
        self.register_buffer(
            "action_bias", torch.tensor((env.action_space.high + env.action_space.low) / 2.0, dtype=torch.float32)
        )

    def forward(self, x):
        x = torch.tanh(self.fc_mu(F.relu(self.fc1(x))))
        return x * self.action_scale + self.action_bias


if __name__ == "__main__":
    args = tyro_cli(Args)
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() and args.cuda else "cpu")

    envs = ToyVecEnv()
    actor = Actor(envs).to(device)
    qf1 = QNetwork(envs).to(device)
    qf1_target = QNetwork(envs).to(device)
    target_actor = Actor(envs).to(device)
    target_actor.load_state_dict(actor.state_dict())
    qf1_target.load_state_dict(qf1.state_dict())
    q_optimizer = optim.Adam(list(qf1.parameters()), lr=args.learning_rate)
    actor_optimizer = optim.Adam(list(actor.parameters()), lr=args.learning_rate)
    rb = []

    obs, _ = envs.reset(seed=args.seed)
    for global_step in range(args.total_timesteps):
        if global_step < args.learning_starts:
            actions = np.array([envs.single_action_space.sample() for _ in range(envs.num_envs)])
        else:
            with torch.no_grad():
                actions = actor(torch.Tensor(obs).to(device))
                actions += torch.normal(0, actor.action_scale * args.exploration_noise)
                actions = actions.cpu().numpy().clip(envs.single_action_space.low, envs.single_action_space.high)

        next_obs, rewards, terminations, truncations, infos = envs.step(actions)
        rb.append((obs, next_obs, actions, rewards, terminations))
        obs = next_obs

        if global_step > args.learning_starts:
            batch = random.sample(rb, args.batch_size)
            observations = torch.tensor(np.concatenate([b[0] for b in batch]), device=device)
            next_observations = torch.tensor(np.concatenate([b[1] for b in batch]), device=device)
            b_actions = torch.tensor(np.concatenate([b[2] for b in batch]), dtype=torch.float32, device=device)
            b_rewards = torch.tensor(np.concatenate([b[3] for b in batch]), dtype=torch.float32, device=device)
            b_dones = torch.tensor(np.concatenate([b[4] for b in batch]), dtype=torch.float32, device=device)
            with torch.no_grad():
                next_state_actions = target_actor(next_observations)
                qf1_next_target = qf1_target(next_observations, next_state_actions)
                next_q_value = b_rewards.flatten() + (1 - b_dones.flatten()) * args.gamma * (qf1_next_target).view(-1)

            qf1_a_values = qf1(observations, b_actions).view(-1)
            qf1_loss = F.mse_loss(qf1_a_values, next_q_value)
            q_optimizer.zero_grad()
            qf1_loss.backward()
            q_optimizer.step()

            if global_step % args.policy_frequency == 0:
                actor_loss = -qf1(observations, actor(observations)).mean()
                actor_optimizer.zero_grad()
                actor_loss.backward()
                actor_optimizer.step()
                for param, target_param in zip(actor.parameters(), target_actor.parameters()):
                    target_param.data.copy_(args.tau * param.data + (1 - args.tau) * target_param.data)
                for param, target_param in zip(qf1.parameters(), qf1_target.parameters()):
                    target_param.data.copy_(args.tau * param.data + (1 - args.tau) * target_param.data)
    print("actor loss", actor_loss.item())

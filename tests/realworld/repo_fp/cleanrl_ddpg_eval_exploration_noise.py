"""CleanRL DDPG/TD3 evaluation: exploration noise drawn with torch.normal(0, <the actor's buffer> * noise scale)

source: https://github.com/vwxyzjn/cleanrl/blob/fe8d8a03c41a7ef5b523e2e354bd01c363e786bb/cleanrl_utils/evals/ddpg_eval.py#L34
(called from https://github.com/vwxyzjn/cleanrl/blob/fe8d8a03c41a7ef5b523e2e354bd01c363e786bb/cleanrl/ddpg_continuous_action.py#L244;
the same code: cleanrl_utils/evals/td3_eval.py#L37, called from cleanrl/td3_continuous_action.py#L289)
false-alarm: DG009 at line 132: evaluate() gets the training script's device and builds the actor with
.to(device); `torch.normal(0, actor.action_scale * exploration_noise)` uses the overload
normal(float mean, Tensor std), whose result is on std's device, and action_scale is a registered buffer
of that actor, so the noise is on the actions' device (CUDA on a GPU run), not on the default device.
"""
# Reduction: the training script is cut to its end (save the actor and critic, then evaluate them),
# gymnasium's vector env is a toy continuous-control env, tyro.cli(Args) an argparse stand-in (the CLI
# makes exploration_noise a value the analysis does not know, as in the original); evaluate() is kept.
import argparse
import os
import tempfile
from dataclasses import dataclass
from typing import Callable

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Args:
    seed: int = 1
    cuda: bool = True
    exploration_noise: float = 0.1


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


class ToyVecEnv:
    """Stands in for gym.vector.SyncVectorEnv with one continuous-control env (episodes of 5 steps)."""

    num_envs = 1
    single_observation_space = Box([-1.0] * 3, [1.0] * 3)
    single_action_space = Box([-2.0], [2.0])
    action_space = Box([[-2.0]], [[2.0]])

    def __init__(self):
        self.t, self.ret = 0, 0.0

    def reset(self, seed=None):
        return np.random.randn(1, 3).astype(np.float32), {}

    def step(self, actions):
        self.t += 1
        self.ret += float(-np.square(actions).sum())
        infos = {}
        if self.t % 5 == 0:
            infos = {"final_info": [{"episode": {"r": self.ret, "l": 5}}]}
            self.ret = 0.0
        return np.random.randn(1, 3).astype(np.float32), np.zeros(1), np.zeros(1, bool), np.zeros(1, bool), infos


def make_env(env_id, seed, idx, capture_video, run_name):
    def thunk():
        return ToyVecEnv()

    return thunk


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


def evaluate(
    model_path: str,
    make_env: Callable,
    env_id: str,
    eval_episodes: int,
    run_name: str,
    Model: nn.Module,
    device: torch.device = torch.device("cpu"),
    capture_video: bool = True,
    exploration_noise: float = 0.1,
):
    envs = make_env(env_id, 0, 0, capture_video, run_name)()
    actor = Model[0](envs).to(device)
    qf = Model[1](envs).to(device)
    actor_params, qf_params = torch.load(model_path, map_location=device)
    actor.load_state_dict(actor_params)
    actor.eval()
    qf.load_state_dict(qf_params)
    qf.eval()
    # note: qf is not used in this script

    obs, _ = envs.reset()
    episodic_returns = []
    while len(episodic_returns) < eval_episodes:
        with torch.no_grad():
            actions = actor(torch.Tensor(obs).to(device))
            actions += torch.normal(0, actor.action_scale * exploration_noise)
            actions = actions.cpu().numpy().clip(envs.single_action_space.low, envs.single_action_space.high)

        next_obs, _, _, _, infos = envs.step(actions)
        if "final_info" in infos:
            for info in infos["final_info"]:
                if "episode" not in info:
                    continue
                print(f"eval_episode={len(episodic_returns)}, episodic_return={info['episode']['r']}")
                episodic_returns += [info["episode"]["r"]]
        obs = next_obs

    return episodic_returns


if __name__ == "__main__":
    args = tyro_cli(Args)
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() and args.cuda else "cpu")
    envs = make_env("Toy-v0", args.seed, 0, False, "toy")()
    actor = Actor(envs).to(device)
    qf1 = QNetwork(envs).to(device)

    model_path = os.path.join(tempfile.mkdtemp(), "ddpg_continuous_action.cleanrl_model")
    torch.save((actor.state_dict(), qf1.state_dict()), model_path)
    print(f"model saved to {model_path}")
    episodic_returns = evaluate(
        model_path,
        make_env,
        "Toy-v0",
        eval_episodes=3,
        run_name="toy-eval",
        Model=(Actor, QNetwork),
        device=device,
        exploration_noise=args.exploration_noise,
    )
    print("returns", episodic_returns)

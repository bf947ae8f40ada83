"""A Chain-of-Action RLBench run, train then evaluate (re-typed: the Hydra launch config as an OmegaConf DictConfig, Workspace with its RLBench dataset/dataloader, agent update loop and save_snapshot/load_snapshot, and scripts/eval.py main): save_snapshot stores the run's DictConfig itself under 'config', so the evaluation script's torch.load(cfg.snapshot, map_location="cpu") is refused by the weights-only default before any episode runs
source: https://github.com/ByteDance-Seed/Chain-of-Action/issues/9
reported-error: "File scripts/eval.py, line 35, in main: checkpoint = torch.load(cfg.snapshot, map_location="cpu") ... _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error"
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL omegaconf.dictconfig.DictConfig was not an allowed global by default. ... at line 240
root-cause: line 210
expect: DG011
"""
import math
import os
import tempfile
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from omegaconf import DictConfig, OmegaConf
from torch.utils.data import DataLoader, Dataset, RandomSampler

WORK_ROOT = Path(tempfile.mkdtemp(prefix="coa_"))


# ---- src/cfgs/launch.yaml + method/coa.yaml, as Hydra composes them (stand-in for @hydra.main) --------------------
def compose_launch_cfg(**overrides) -> DictConfig:
    cfg = OmegaConf.create({
        "num_train_steps": 40,
        "eval_every_steps": 1000,
        "save_every_steps": 20,
        "log_every_steps": 10,
        "num_eval_episodes": 3,
        "snapshot": None,
        "batch_size": 16,
        "task": "push_button",
        "demos": 8,
        "visual_observation_shape": [32, 32],
        "action_sequence": None,
        "execution_length": 4,
        "method_name": "coa",
        "wandb": {"use": False},
        "env": {"env_name": "rlbench", "task_name": "${task}", "action_mode": "ABS_END_EFFECTOR_POSE",
                "cameras": ["front", "wrist"], "episode_length": 30},
        "method": {"_target_": "CoA", "lr": 1e-4, "weight_decay": 1e-4, "hidden_dim": 64,
                   "action_sequence": "variable", "action_dim": 8, "execution_length": "${execution_length}",
                   "loss_type": "l1", "actor_grad_clip": 1.0},
    })
    for key, value in overrides.items():
        OmegaConf.update(cfg, key, value)
    return cfg


class Accelerator:
    """accelerate.Accelerator as Workspace uses it: a device and prepare()."""

    def __init__(self):
        self.device = torch.device("cpu")

    def prepare(self, *objs):
        return objs if len(objs) > 1 else objs[0]


# ---- src/dataset/rlbench_dataset.py (synthetic demos: two camera views, proprioception, action chunks) -----------
class RLBenchDataset(Dataset):
    def __init__(self, cfg, seq_len, n_demos, seed):
        g = torch.Generator().manual_seed(seed)
        h, w = cfg.visual_observation_shape
        n = n_demos * cfg.env.episode_length
        self.rgb = torch.rand(n, len(cfg.env.cameras), 3, h, w, generator=g)
        self.low_dim = torch.randn(n, 8, generator=g)
        target = torch.tanh(self.low_dim[:, :8]).unsqueeze(1)
        self.action = target + 0.05 * torch.randn(n, seq_len, 8, generator=g)
        self.seq_len = seq_len

    def __len__(self):
        return len(self.low_dim)

    def __getitem__(self, i):
        return {"rgb": self.rgb[i], "low_dim_state": self.low_dim[i], "action": self.action[i]}


class RLBenchEnvFactory:
    def _load_demos(self, cfg, training=True):
        return cfg.demos if training else 2, 6  # (demos, max sub-trajectory length -> action_sequence)


class EvalEnv:
    """The RLBench eval env: reset to a demo, step an action chunk, success when the button is reached."""

    def __init__(self, cfg, seed=1):
        self.cfg = cfg
        self.g = torch.Generator().manual_seed(seed)

    def reset(self):
        h, w = self.cfg.visual_observation_shape
        self.goal = torch.tanh(torch.randn(8, generator=self.g))
        self.t = 0
        return {"rgb": torch.rand(len(self.cfg.env.cameras), 3, h, w, generator=self.g),
                "low_dim_state": torch.atanh(self.goal.clamp(-0.99, 0.99))}

    def step(self, action):
        self.t += 1
        err = float(np.abs(action[0] - self.goal.numpy()).mean())
        done = err < 0.15 or self.t >= 5
        return self.reset() if done else None, -err, err < 0.15, self.t >= 5, {}


# ---- src/methods/coa (a small action-chunk transformer standing in for ActorModel) -------------------------------
class CoA(nn.Module):
    def __init__(self, accelerator, lr, weight_decay, hidden_dim, action_sequence, action_dim, execution_length,
                 loss_type, actor_grad_clip):
        super().__init__()
        self.device = accelerator.device
        self.action_sequence = action_sequence
        self.action_dim = action_dim
        self.actor_grad_clip = actor_grad_clip
        self.rgb_encoder = nn.Sequential(nn.Conv2d(3, 16, 5, 2, 2), nn.ReLU(), nn.Conv2d(16, 32, 3, 2, 1), nn.ReLU(),
                                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, hidden_dim))
        self.low_dim_proj = nn.Linear(8, hidden_dim)
        layer = nn.TransformerEncoderLayer(hidden_dim, 4, 2 * hidden_dim, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2)
        self.query = nn.Parameter(torch.randn(16, hidden_dim) * 0.02)
        self.action_head = nn.Linear(hidden_dim, action_dim)
        self.opt = torch.optim.AdamW(self.parameters(), lr=lr * 30, weight_decay=weight_decay)

    def forward(self, batch):
        b, v = batch["rgb"].shape[:2]
        tokens = self.rgb_encoder(batch["rgb"].flatten(0, 1)).view(b, v, -1)
        tokens = torch.cat([tokens, self.low_dim_proj(batch["low_dim_state"]).unsqueeze(1)], dim=1)
        q = self.query[: self.action_sequence].unsqueeze(0).expand(b, -1, -1)
        out = self.encoder(torch.cat([tokens, q], dim=1))[:, -self.action_sequence:]
        return torch.tanh(self.action_head(out))

    def update(self, batch):
        pred = self(batch)
        loss = F.l1_loss(pred, batch["action"])
        self.opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(self.parameters(), self.actor_grad_clip)
        self.opt.step()
        return {"total_loss": loss.item()}

    @torch.no_grad()
    def act(self, obs):
        return self(obs)


def instantiate(method_cfg, **kwargs):
    """hydra.utils.instantiate(cfg.method, accelerator=...) for the CoA target."""
    params = {k: v for k, v in OmegaConf.to_container(method_cfg, resolve=True).items() if k != "_target_"}
    return {"CoA": CoA}[method_cfg._target_](**kwargs, **params)


# ---- src/workspace.py ---------------------------------------------------------------------------------------------
class Workspace:
    def __init__(self, cfg, train: bool = True):
        torch.manual_seed(1)
        np.random.seed(1)
        self.cfg = cfg
        self.work_dir = WORK_ROOT / f"rlbench_{cfg.env.task_name}"
        self.accelerator = Accelerator()
        self.device = self.accelerator.device
        self.env_factory = RLBenchEnvFactory()
        self._current_step = 0
        if train:
            demos, action_sequence_train = self.env_factory._load_demos(cfg, training=True)
            cfg.action_sequence = action_sequence_train
            cfg.method.action_sequence = action_sequence_train
            self.dataset = RLBenchDataset(cfg, seq_len=action_sequence_train, n_demos=demos, seed=0)
            sampler = RandomSampler(self.dataset, replacement=True, num_samples=cfg.batch_size)
            self.dataloader = DataLoader(self.dataset, batch_size=cfg.batch_size, sampler=sampler, num_workers=0)
        else:
            cfg.method.action_sequence = cfg.action_sequence
        self.agent = instantiate(cfg.method, accelerator=self.accelerator)
        if cfg.snapshot is not None:
            self.load_snapshot(cfg.snapshot)
        self.eval_env = EvalEnv(cfg)

    def _get_next_batch(self):
        return next(iter(self.dataloader)), self.dataloader

    def loop(self):
        for step in range(self.cfg.num_train_steps):
            batch, _ = self._get_next_batch()
            self._current_step += 1
            batch = {k: v.to(self.device) if isinstance(v, torch.Tensor) else v for k, v in batch.items()}
            updated_metrics = self.agent.update(batch)
            if self._current_step % self.cfg.log_every_steps == 0:
                print(f"Step {self._current_step}/{self.cfg.num_train_steps}, Loss: {updated_metrics['total_loss']:.4f}")
            if self._current_step % self.cfg.save_every_steps == 0:
                self.save_snapshot()
        print("Finished training!")

    def eval(self):
        successes, total_reward = 0, 0.0
        for _ in range(self.cfg.num_eval_episodes):
            obs = self.eval_env.reset()
            termination = truncation = False
            while not (termination or truncation):
                action = self.agent.act({k: v.unsqueeze(0) for k, v in obs.items()}).cpu().numpy()[0]
                next_obs, reward, termination, truncation, _ = self.eval_env.step(action)
                total_reward += reward
                obs = next_obs if next_obs is not None else obs
            successes += int(termination)
        return {"episode_success": successes / self.cfg.num_eval_episodes, "episode_reward": total_reward}

    def save_snapshot(self):
        save_dir = self.work_dir / "checkpoints"
        save_dir.mkdir(parents=True, exist_ok=True)
        checkpoint = {
            "agent_state_dict": self.agent.state_dict(),
            "config": self.cfg,  # root-cause
            "step": self._current_step,
        }
        checkpoint_path = save_dir / f"{self.cfg.method_name}_{self._current_step}.pt"
        torch.save(checkpoint, checkpoint_path)
        print(f"Checkpoint saved to {checkpoint_path}")

    def load_snapshot(self, path: str):
        checkpoint_path = Path(path)
        if not checkpoint_path.exists():
            print(f"Warning: Checkpoint file {checkpoint_path} does not exist")
            return None
        checkpoint = torch.load(checkpoint_path, map_location="cpu")
        self.cfg_ckpt = checkpoint.get("config", None)
        if self.cfg_ckpt is None:
            raise RuntimeError("Checkpoint does not contain config. Cannot initialize Workspace.")
        self.agent.load_state_dict(checkpoint["agent_state_dict"])
        self._current_step = checkpoint.get("step", 0)
        print(f"Checkpoint loaded from {checkpoint_path}")


# ---- src/workspace.py main (training) and scripts/eval.py main ------------------------------------------------------
def train_main(cfg):
    workspace = Workspace(cfg)
    workspace.loop()
    return workspace


def eval_main(cfg):
    # load the checkpoint
    checkpoint = torch.load(cfg.snapshot, map_location="cpu")  # fails-here  # root-cause-alt

    # merge the cfg from checkpoint and the cfg from command line
    cfg_ckpt = checkpoint["config"]
    cfg.env.env_name = cfg_ckpt.env.env_name
    cfg.method = cfg_ckpt.method
    cfg.action_sequence = cfg_ckpt.action_sequence
    cfg.method_name = cfg_ckpt.method_name
    cfg.wandb.use = False

    workspace = Workspace(cfg, train=False)
    metrics = workspace.eval()
    print(f"eval {cfg.env.task_name}: success {metrics['episode_success']:.2f}, reward {metrics['episode_reward']:.3f}")


trained = train_main(compose_launch_cfg())
snapshot = trained.work_dir / "checkpoints" / f"coa_{trained.cfg.num_train_steps}.pt"
eval_main(compose_launch_cfg(snapshot=str(snapshot)))

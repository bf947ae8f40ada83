"""Resuming a nerfstudio training run (as in ak08: the ExponentialDecayScheduler's np.exp multiplier leaves NumPy scalars in the optimizer and scheduler state dicts that save_checkpoint pickles) with _load_checkpoint loading the run's own checkpoint with torch.load(load_path, map_location="cpu", weights_only=False), the fix given in nerfstudio issue #3683 for checkpoints that nerfstudio itself wrote; the resumed run continues from the saved step
source: https://github.com/nerfstudio-project/nerfstudio/issues/3683
reported-error: (none filed; the fixed situation of ak08, weights_only=False for the locally produced checkpoint)
outcome: ok
root-cause: -
expect: none
"""
import argparse
import os
import tempfile
from dataclasses import dataclass

import numpy as np

import torch
import torch.nn as nn
from torch.optim import lr_scheduler


# ---- nerfstudio/engine/schedulers.py (ExponentialDecayScheduler)
@dataclass
class ExponentialDecaySchedulerConfig:
    lr_pre_warmup: float = 1e-8
    lr_final: float = None
    warmup_steps: int = 0
    max_steps: int = 100000
    ramp: str = "cosine"


class ExponentialDecayScheduler:
    def __init__(self, config):
        self.config = config

    def get_scheduler(self, optimizer, lr_init):
        lr_final = lr_init if self.config.lr_final is None else self.config.lr_final

        def func(step):
            if step < self.config.warmup_steps:
                if self.config.ramp == "cosine":
                    lr = self.config.lr_pre_warmup + (lr_init - self.config.lr_pre_warmup) * np.sin(
                        0.5 * np.pi * np.clip(step / self.config.warmup_steps, 0, 1))
                else:
                    lr = self.config.lr_pre_warmup + (lr_init - self.config.lr_pre_warmup) * step / self.config.warmup_steps
            else:
                t = np.clip((step - self.config.warmup_steps) / (self.config.max_steps - self.config.warmup_steps), 0, 1)
                lr = np.exp(np.log(lr_init) * (1 - t) + np.log(lr_final) * t)
            return lr / lr_init  # divided by lr_init because the multiplier is with the initial learning rate

        return lr_scheduler.LambdaLR(optimizer, lr_lambda=func)


# ---- nerfstudio/engine/optimizers.py (Optimizers, reduced)
class Optimizers:
    def __init__(self, config, param_groups):
        self.config = config
        self.optimizers, self.schedulers, self.parameters = {}, {}, {}
        for param_group_name, params in param_groups.items():
            lr_init = config[param_group_name]["optimizer"]["lr"]
            self.optimizers[param_group_name] = torch.optim.Adam(params, lr=lr_init, eps=1e-15)
            self.parameters[param_group_name] = params
            if config[param_group_name]["scheduler"]:
                self.schedulers[param_group_name] = ExponentialDecayScheduler(
                    config[param_group_name]["scheduler"]).get_scheduler(self.optimizers[param_group_name], lr_init)

    def zero_grad_all(self):
        for optimizer in self.optimizers.values():
            optimizer.zero_grad()

    def optimizer_scaler_step_all(self, grad_scaler):
        for optimizer in self.optimizers.values():
            grad_scaler.step(optimizer)

    def scheduler_step_all(self, step):
        for scheduler in self.schedulers.values():
            scheduler.step()

    def load_optimizers(self, loaded_state):
        for k, v in loaded_state.items():
            self.optimizers[k].load_state_dict(v)

    def load_schedulers(self, loaded_state):
        for k, v in loaded_state.items():
            self.schedulers[k].load_state_dict(v)


# ---- the pipeline: a tiny radiance field fitted to the rays of one synthetic view
class TinyField(nn.Module):
    def __init__(self, n_freqs=4, hidden=32):
        super().__init__()
        self.n_freqs = n_freqs
        self.mlp = nn.Sequential(nn.Linear(2 + 4 * n_freqs, hidden), nn.ReLU(), nn.Linear(hidden, 3))

    def encode(self, xy):
        freqs = 2.0 ** torch.arange(self.n_freqs, dtype=xy.dtype) * np.pi
        ang = xy[..., None] * freqs
        return torch.cat([xy, torch.sin(ang).flatten(-2), torch.cos(ang).flatten(-2)], dim=-1)

    def forward(self, xy):
        return torch.sigmoid(self.mlp(self.encode(xy)))


class Pipeline(nn.Module):
    def __init__(self, image):
        super().__init__()
        self.field = TinyField()
        h, w, _ = image.shape
        ys, xs = np.meshgrid(np.linspace(-1, 1, h, dtype=np.float32), np.linspace(-1, 1, w, dtype=np.float32), indexing="ij")
        self.register_buffer("coords", torch.from_numpy(np.stack([xs, ys], -1).reshape(-1, 2)))
        self.register_buffer("rgb", torch.from_numpy(image.reshape(-1, 3)))

    def get_param_groups(self):
        return {"fields": list(self.field.parameters())}

    def get_train_loss_dict(self, step, batch_size=256):
        idx = torch.randint(0, self.coords.shape[0], (batch_size,))
        pred = self.field(self.coords[idx])
        return {"rgb_loss": torch.mean((pred - self.rgb[idx]) ** 2)}


# ---- nerfstudio/engine/trainer.py (reduced)
class Trainer:
    def __init__(self, args, image):
        self.args = args
        self.pipeline = Pipeline(image)
        self.checkpoint_dir = args.checkpoint_dir
        self.optimizers = Optimizers(
            {"fields": {"optimizer": {"lr": 1e-2},
                        "scheduler": ExponentialDecaySchedulerConfig(lr_final=1e-4, max_steps=args.max_num_iterations)}},
            self.pipeline.get_param_groups())
        self.grad_scaler = torch.amp.GradScaler("cpu", enabled=False)
        self._start_step = 0

    def setup(self):
        self._load_checkpoint()

    def train(self):
        for step in range(self._start_step, self._start_step + self.args.max_num_iterations):
            self.optimizers.zero_grad_all()
            loss = sum(self.pipeline.get_train_loss_dict(step).values())
            self.grad_scaler.scale(loss).backward()
            self.optimizers.optimizer_scaler_step_all(self.grad_scaler)
            self.grad_scaler.update()
            self.optimizers.scheduler_step_all(step)
            if step % 50 == 0:
                print("step {:5d} loss {:.5f}".format(step, loss.item()))
            if step > 0 and step % self.args.steps_per_save == 0:
                self.save_checkpoint(step)
        self.save_checkpoint(step)

    def _load_checkpoint(self):
        load_dir = self.args.load_dir
        if load_dir is not None:
            load_step = sorted(int(x[x.find("-") + 1: x.find(".")]) for x in os.listdir(load_dir))[-1]
            load_path = os.path.join(load_dir, f"step-{load_step:09d}.ckpt")
            # torch>=2.6 defaults to weights_only=True; nerfstudio checkpoints contain non-tensor objects (NumPy scalars
            # written by the schedulers), and they are produced locally by nerfstudio itself
            loaded_state = torch.load(load_path, map_location="cpu", weights_only=False)
            self._start_step = loaded_state["step"] + 1
            self.pipeline.load_state_dict(loaded_state["pipeline"])
            self.optimizers.load_optimizers(loaded_state["optimizers"])
            self.optimizers.load_schedulers(loaded_state["schedulers"])
            self.grad_scaler.load_state_dict(loaded_state["scalers"])
            print(f"Done loading Nerfstudio checkpoint from {load_path}")
        else:
            print("No Nerfstudio checkpoint to load, so training from scratch.")

    def save_checkpoint(self, step):
        os.makedirs(self.checkpoint_dir, exist_ok=True)
        ckpt_path = os.path.join(self.checkpoint_dir, f"step-{step:09d}.ckpt")
        torch.save(
            {
                "step": step,
                "pipeline": self.pipeline.state_dict(),
                "optimizers": {k: v.state_dict() for (k, v) in self.optimizers.optimizers.items()},
                "schedulers": {k: v.state_dict() for (k, v) in self.optimizers.schedulers.items()},
                "scalers": self.grad_scaler.state_dict(),
            },
            ckpt_path,
        )


def make_image(h=24, w=32, seed=0):
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:h, 0:w] / np.array([h, w])[:, None, None]
    img = np.stack([0.5 + 0.5 * np.sin(6 * xx), 0.5 + 0.5 * np.cos(5 * yy), xx * yy], -1)
    return np.clip(img + rng.normal(0, 0.01, img.shape), 0, 1).astype(np.float32)


if __name__ == "__main__":
    parser = argparse.ArgumentParser("ns-train")
    parser.add_argument("--max-num-iterations", type=int, default=200)
    parser.add_argument("--steps-per-save", type=int, default=100)
    parser.add_argument("--checkpoint-dir", type=str, default="outputs/nerfstudio_models")
    parser.add_argument("--load-dir", type=str, default=None)
    out = os.path.join(tempfile.mkdtemp(), "nerfstudio_models")
    torch.manual_seed(0)
    image = make_image()
    first = parser.parse_args(["--checkpoint-dir", out])
    trainer = Trainer(first, image)
    trainer.setup()
    trainer.train()                       # ns-train ... (the first, interrupted run)
    resumed = parser.parse_args(["--checkpoint-dir", out, "--load-dir", out])
    trainer = Trainer(resumed, image)
    trainer.setup()                       # ns-train ... --load-dir outputs/.../nerfstudio_models
    trainer.train()

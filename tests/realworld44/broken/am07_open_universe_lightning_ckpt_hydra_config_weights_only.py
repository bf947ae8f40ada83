"""Speech enhancement with UNIVERSE++ (line/open-universe: open_universe/inference_utils/model_loader.py's load_model, used by open_universe/bin/enhance.py; the Lightning checkpoint weights.ckpt written during Hydra-configured training, holding the state dict, the EMA weights and the hyper-parameters as an OmegaConf DictConfig), pull request #8: on torch 2.6+ load_model's torch.load(ckpt_path, map_location=device) runs under the weights_only=True default and refuses the checkpoint's config objects
source: https://github.com/line/open-universe/pull/8
reported-error: "From Torch 2.6, torch.load is set with weights_only=True by default ... This makes the loading of the current pretrained weights fail, as many things other than weights are currently saved there (apparently, Hydra stuff, lists, etc)"; the pull request sets weights_only=False
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL __main__.DictConfig was not an allowed global by default. ... at line 130
root-cause: line 177
expect: DG011
"""
import argparse
import copy
import tempfile
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import yaml


# ---- omegaconf / hydra.utils (not installed here; re-typed: a dict-backed DictConfig and instantiate)
class DictConfig(dict):
    def __getattr__(self, key):
        if key not in self:
            raise AttributeError(key)
        value = self[key]
        return DictConfig(value) if isinstance(value, dict) and not isinstance(value, DictConfig) else value


class OmegaConf:
    @staticmethod
    def create(obj):
        return DictConfig({k: OmegaConf.create(v) if isinstance(v, dict) else v for k, v in obj.items()})


def instantiate(config, _recursive_=False):
    cls = {"open_universe.networks.universe.Universe": Universe}[config["_target_"]]
    return cls(**{k: v for k, v in config.items() if k != "_target_"})


# ---- open_universe/networks/universe (reduced: a conditional score network on STFT-free waveforms, with EMA)
class ExponentialMovingAverage:
    def __init__(self, parameters, decay=0.999):
        self.decay = decay
        self.shadow_params = [p.clone().detach() for p in parameters]
        self.collected_params = None

    def update(self, parameters):
        with torch.no_grad():
            for s, p in zip(self.shadow_params, parameters):
                s.sub_((1.0 - self.decay) * (s - p))

    def store(self, parameters):
        self.collected_params = [p.clone() for p in parameters]

    def copy_to(self, parameters):
        for s, p in zip(self.shadow_params, parameters):
            p.data.copy_(s.data)

    def state_dict(self):
        return {"decay": self.decay, "shadow_params": self.shadow_params}

    def load_state_dict(self, state_dict):
        self.decay = state_dict["decay"]
        self.shadow_params = [p.clone() for p in state_dict["shadow_params"]]


class Universe(nn.Module):
    def __init__(self, fs=16000, n_channels=16, n_steps=8, ema_decay=0.999, **kwargs):
        super().__init__()
        self.fs = fs
        self.n_steps = n_steps
        self.cond = nn.Conv1d(1, n_channels, 9, padding=4)
        self.score = nn.Sequential(nn.Conv1d(n_channels + 2, n_channels, 9, padding=4), nn.PReLU(),
                                   nn.Conv1d(n_channels, 1, 9, padding=4))
        self.ema = ExponentialMovingAverage(self.model_parameters(), decay=ema_decay)

    def model_parameters(self):
        return list(self.parameters())

    def forward(self, xt, sigma, mix):
        c = self.cond(mix)
        s = sigma[:, None, None].expand(-1, 1, xt.shape[-1])
        return self.score(torch.cat([xt, s, c], dim=1))

    def training_loss(self, mix, target):
        sigma = torch.rand(mix.shape[0]) * 0.5 + 0.01
        noise = torch.randn_like(target)
        score = self(target + sigma[:, None, None] * noise, sigma, mix)
        return F.mse_loss(score * sigma[:, None, None], -noise)

    @torch.no_grad()
    def enhance(self, mix):
        x = mix + 0.5 * torch.randn_like(mix)
        for sigma in torch.linspace(0.5, 0.01, self.n_steps):
            s = torch.full((mix.shape[0],), float(sigma))
            x = x + (sigma ** 2) * self(x, s, mix)
        return x


# ---- open_universe/inference_utils/model_loader.py
def ckpt_to_config_path(ckpt_path):
    ckpt_path = Path(ckpt_path)
    config_path_1 = ckpt_path.parent / "config.yaml"
    config_path_2 = ckpt_path.parents[1] / ".hydra/config.yaml"
    if config_path_1.exists():
        config_path = config_path_1
    elif config_path_2.exists():
        config_path = config_path_2
    else:
        raise ValueError(f"Could not find the configuration file for model {ckpt_path}.")
    return config_path


def open_update_config(path):
    with open(path, "r") as f:
        config = yaml.safe_load(f)
    config = OmegaConf.create(config)
    return config


def load_model(ckpt_path, device=None, strict=True, return_config=False, hf_token=None):
    ckpt_path = Path(ckpt_path)
    config_path = ckpt_to_config_path(ckpt_path)

    config = open_update_config(config_path)

    model = instantiate(config.model, _recursive_=False)
    model = model.to(device)

    data = torch.load(ckpt_path, map_location=device)  # fails-here

    if hasattr(model, "ema") and "ema" in data:
        model.ema.load_state_dict(data["ema"])
        model.load_state_dict(data["state_dict"], strict=False)
    elif hasattr(model, "ema") and "ema" not in data and model.ema is not None:
        model.load_state_dict(data["state_dict"], strict=strict)
        model.ema.store(model.model_parameters())
    else:
        model.load_state_dict(data["state_dict"], strict=strict)

    model.eval()
    if return_config:
        return model, config
    else:
        return model


# ---- training (open_universe/train.py with Hydra and Lightning, reduced): the run folder gets
# .hydra/config.yaml and checkpoints/weights.ckpt in Lightning's checkpoint layout
def train(exp_dir, cfg, steps=20):
    (exp_dir / ".hydra").mkdir(parents=True, exist_ok=True)
    (exp_dir / "checkpoints").mkdir(parents=True, exist_ok=True)
    with open(exp_dir / ".hydra" / "config.yaml", "w") as f:
        yaml.safe_dump(cfg, f)
    config = OmegaConf.create(cfg)
    model = instantiate(config.model, _recursive_=False)
    optimizer = torch.optim.Adam(model.parameters(), lr=config.model.get("lr", 1e-3))
    rng = np.random.default_rng(0)
    for step in range(steps):
        clean = torch.from_numpy(np.sin(np.linspace(0, 40, 800) * rng.uniform(0.5, 2.0, (4, 1))).astype(np.float32))
        mix = clean + 0.3 * torch.randn_like(clean)
        loss = model.training_loss(mix[:, None], clean[:, None])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        model.ema.update(model.model_parameters())
    # LightningModule.save_hyperparameters() keeps the Hydra config; ModelCheckpoint writes it with the weights
    checkpoint = {
        "epoch": 0,
        "global_step": steps,
        "pytorch-lightning_version": "2.0.6",
        "state_dict": model.state_dict(),
        "ema": model.ema.state_dict(),
        "optimizer_states": [optimizer.state_dict()],
        "lr_schedulers": [],
        "hparams_name": "kwargs",
        "hyper_parameters": copy.deepcopy(config.model),  # root-cause
    }
    torch.save(checkpoint, exp_dir / "checkpoints" / "weights.ckpt")
    print(f"step {steps} loss {loss.item():.4f}")


# ---- open_universe/bin/enhance.py (reduced: in-memory noisy utterances instead of a folder of wav files)
def enhance_main(argv):
    parser = argparse.ArgumentParser(description="Enhance noisy speech with a trained UNIVERSE model")
    parser.add_argument("input_dir", type=Path)
    parser.add_argument("output_dir", type=Path)
    parser.add_argument("--model", type=str, default="line-corporation/open-universe:plusplus")
    parser.add_argument("--device", type=str, default="cuda" if torch.cuda.is_available() else "cpu")
    args = parser.parse_args(argv)

    model = load_model(args.model, device=args.device)
    noisy = torch.from_numpy(np.sin(np.linspace(0, 40, 800)).astype(np.float32))[None, None]
    noisy = noisy + 0.3 * torch.randn_like(noisy)
    enhanced = model.enhance(noisy.to(args.device))
    print("enhanced", tuple(enhanced.shape))


if __name__ == "__main__":
    torch.manual_seed(0)
    exp_dir = Path(tempfile.mkdtemp()) / "exp" / "universepp_vb_16k"
    cfg = {"model": {"_target_": "open_universe.networks.universe.Universe", "fs": 16000, "n_channels": 16,
                     "n_steps": 8, "ema_decay": 0.999, "lr": 0.001},
           "datamodule": {"batch_size": 4, "train": {"audio_len": 800}}, "trainer": {"max_steps": 20}}
    train(exp_dir, cfg)
    # python -m open_universe.bin.enhance noisy/ enhanced/ --model exp/.../checkpoints/weights.ckpt
    enhance_main([str(exp_dir / "noisy"), str(exp_dir / "enhanced"),
                  "--model", str(exp_dir / "checkpoints" / "weights.ckpt")])

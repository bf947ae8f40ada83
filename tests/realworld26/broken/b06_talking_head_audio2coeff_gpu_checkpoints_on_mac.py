"""Talking-head generation inference (SadTalker Audio2Coeff layout) on an Apple-silicon laptop: the shared load_cpk helper forwards its device argument as map_location, the pose network is loaded with device=self.device, but the expression network's call leaves the device out, so its GPU-written checkpoint is deserialised onto CUDA
source: https://github.com/OpenTalker/SadTalker/issues/440
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. (mac m2; the checkpoints had been written on a GPU)
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 19
root-cause: line 54
expect: DG010
"""
import argparse
import os
import tempfile

import torch
import torch.nn as nn
import torch.serialization as serialization


# ---- src/utils/safetensor_helper.py / load helpers
def load_cpk(checkpoint_path, model=None, optimizer=None, device=None):
    checkpoint = torch.load(checkpoint_path, map_location=device)  # fails-here
    if model is not None:
        model.load_state_dict(checkpoint["model"])
    if optimizer is not None:
        optimizer.load_state_dict(checkpoint["optimizer"])
    return checkpoint.get("epoch", 0)


# ---- src/audio2exp_models, src/audio2pose_models
class Audio2Exp(nn.Module):
    def __init__(self, n_mels=80, n_exp=64):
        super().__init__()
        self.net = nn.GRU(n_mels, 128, batch_first=True)
        self.out = nn.Linear(128, n_exp)

    def forward(self, mel):
        return self.out(self.net(mel)[0])


class Audio2Pose(nn.Module):
    def __init__(self, n_mels=80, n_pose=6):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_mels, 64), nn.Tanh(), nn.Linear(64, n_pose))

    def forward(self, mel):
        return self.net(mel)


# ---- src/test_audio2coeff.py
class Audio2Coeff:
    def __init__(self, sadtalker_paths, device):
        self.device = device
        self.audio2pose_model = Audio2Pose()
        load_cpk(sadtalker_paths["audio2pose_checkpoint"], model=self.audio2pose_model, device=self.device)
        self.audio2exp_model = Audio2Exp()
        load_cpk(sadtalker_paths["audio2exp_checkpoint"], model=self.audio2exp_model)  # root-cause
        self.audio2pose_model.to(device).eval()
        self.audio2exp_model.to(device).eval()

    @torch.no_grad()
    def generate(self, batch):
        mel = batch["indiv_mels"].to(self.device)
        return torch.cat([self.audio2exp_model(mel), self.audio2pose_model(mel)], -1)


# ---- checkpoints as released (saved from a GPU run)
def save_released_checkpoint(model, path):
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save({"model": model.state_dict(), "epoch": 200}, path)
    finally:
        serialization.location_tag = original


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--checkpoint_dir", default=tempfile.mkdtemp())
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = parser.parse_args([])
    paths = {"audio2pose_checkpoint": os.path.join(args.checkpoint_dir, "auido2pose_00140-model.pth"),
             "audio2exp_checkpoint": os.path.join(args.checkpoint_dir, "auido2exp_00300-model.pth")}
    save_released_checkpoint(Audio2Pose(), paths["audio2pose_checkpoint"])
    save_released_checkpoint(Audio2Exp(), paths["audio2exp_checkpoint"])
    audio_to_coeff = Audio2Coeff(paths, args.device)
    coeffs = audio_to_coeff.generate({"indiv_mels": torch.randn(1, 25, 80)})
    print("coeffs", tuple(coeffs.shape))

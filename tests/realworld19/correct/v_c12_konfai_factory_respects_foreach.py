"""Segmentation framework whose optimizer factory only picks fused=True when the configuration asked for neither fused nor foreach (here the YAML asks for foreach=True, so fused is left unset)
source: https://github.com/fideus-labs/KonfAI/pull/169
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import inspect

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

CONFIG = {
    "Trainer": {"epochs": 2, "batch_size": 4},
    "Network": {"channels": [1, 8, 16], "nb_class": 2},
    "Optimizer": {"name": "Adam", "lr": 1e-3, "betas": [0.9, 0.999], "foreach": True},
}


# ---- konfai/network/blocks.py
class ConvBlock(nn.Sequential):
    def __init__(self, c_in, c_out):
        super().__init__(nn.Conv3d(c_in, c_out, 3, padding=1), nn.InstanceNorm3d(c_out), nn.LeakyReLU(0.01))


class UNetLite(nn.Module):
    def __init__(self, channels, nb_class):
        super().__init__()
        self.down = ConvBlock(channels[0], channels[1])
        self.bottom = ConvBlock(channels[1], channels[2])
        self.up = nn.ConvTranspose3d(channels[2], channels[1], 2, stride=2)
        self.head = nn.Conv3d(2 * channels[1], nb_class, 1)

    def forward(self, x):
        d = self.down(x)
        b = self.bottom(F.max_pool3d(d, 2))
        return self.head(torch.cat([d, self.up(b)], 1))


# ---- konfai/network/network/base.py
def get_optimizer(name, parameters, **kwargs):
    optimizer_class = getattr(torch.optim, name)
    signature = inspect.signature(optimizer_class)
    unset = kwargs.get("fused") is None and kwargs.get("foreach") is None
    if unset and "fused" in signature.parameters and all(p.is_floating_point() for p in parameters):
        kwargs["fused"] = True
    return optimizer_class(parameters, **kwargs)


class Network:
    def __init__(self, config):
        self.model = UNetLite(**config["Network"])
        opt_cfg = dict(config["Optimizer"])
        name = opt_cfg.pop("name")
        opt_cfg["betas"] = tuple(opt_cfg["betas"])
        self.optimizer = get_optimizer(name, list(self.model.parameters()), **opt_cfg)

    def train(self, volumes, masks, epochs, batch_size):
        for epoch in range(epochs):
            for k in range(0, len(volumes), batch_size):
                logits = self.model(volumes[k:k + batch_size])
                loss = F.cross_entropy(logits, masks[k:k + batch_size])
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            print("epoch", epoch, "loss", round(loss.item(), 4))


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    vol = torch.from_numpy(rng.random((8, 1, 16, 16, 16)).astype(np.float32))
    seg = (vol[:, 0] > 0.5).long()
    net = Network(CONFIG)
    net.train(vol, seg, **CONFIG["Trainer"])

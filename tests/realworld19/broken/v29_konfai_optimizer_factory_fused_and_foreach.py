"""Medical-image segmentation framework (KonfAI-like) whose optimizer factory "batches" the update by forcing fused=True whenever the signature has it, after the YAML config has already asked for foreach=True; torch.optim.Adam rejects both flags together when the network's optimizer is built
source: https://github.com/fideus-labs/KonfAI/pull/169
reported-error: review of build(): fused/foreach forced by the optimizer factory (fused=True picked automatically when the parameters allow it)
outcome: RuntimeError: `fused` and `foreach` cannot be `True` together. at line 48
root-cause: line 47
expect: DG016
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
    if "fused" in signature.parameters and all(p.is_floating_point() for p in parameters):
        kwargs["fused"] = True  # root-cause
    return optimizer_class(parameters, **kwargs)  # fails-here


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

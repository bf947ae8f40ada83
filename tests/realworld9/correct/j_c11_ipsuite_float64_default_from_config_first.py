"""IPSuite-style workflow run entirely in double precision on purpose: the node reads default_dtype "float64" from its config and calls torch.set_default_dtype before the energy model and the position tensors are created
source: https://github.com/zincware/IPSuite/pull/216
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn

CONFIG = {"default_dtype": "float64", "n_atoms": 4, "hidden": 16}


def setup_precision(config):
    torch.set_default_dtype(getattr(torch, config["default_dtype"]))


def build_model(config):
    return nn.Sequential(nn.Linear(3 * config["n_atoms"], config["hidden"]), nn.SiLU(), nn.Linear(config["hidden"], 1))


def main(config=CONFIG):
    setup_precision(config)
    model = build_model(config)
    rng = np.random.default_rng(0)
    frames = rng.normal(size=(32, config["n_atoms"], 3))
    x = torch.tensor(frames.tolist()).flatten(1)
    y = x.sum(1, keepdim=True)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(5):
        loss = ((model(x) - y) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("loss", loss.item(), "dtype", loss.dtype, "energy of frame 0:", model(torch.tensor(frames[0].tolist()).flatten()[None]).item())


if __name__ == "__main__":
    main()

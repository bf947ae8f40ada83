"""FP16 fine-tuning resumed from a float32 checkpoint: the script builds the optimizer, restores its state (exp_avg/exp_avg_sq become float32 like the parameters at that moment), and only then converts the network with network_to_half(); the next Adam step mixes float16 parameters with float32 state
source: https://github.com/NVIDIA/apex/issues/32
reported-error: dtype mismatch between float16 parameters and float32 optimizer buffers; the maintainer: convert the network to half before constructing the optimizer (optimizer state buffers follow the parameters' type at creation)
outcome: RuntimeError: expected dtype float for `end` but got dtype c10::Half at line 49
root-cause: line 38
expect: DG015
"""
import os
import tempfile

import torch
import torch.nn as nn


def make_model():
    return nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 4))


def network_to_half(model):
    return model.half()


def pretrain_and_save(path):
    model = make_model()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss = nn.functional.cross_entropy(model(torch.randn(16, 12)), torch.randint(0, 4, (16,)))
    loss.backward()
    opt.step()
    torch.save({"model": model.state_dict(), "optimizer": opt.state_dict()}, path)


def resume(path):
    ckpt = torch.load(path)
    model = make_model()
    model.load_state_dict(ckpt["model"])
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, eps=1e-4)
    optimizer.load_state_dict(ckpt["optimizer"])
    model = network_to_half(model)  # root-cause
    return model, optimizer


def finetune(model, optimizer, steps=2):
    for step in range(steps):
        x = torch.randn(16, 12).half()
        y = torch.randint(0, 4, (16,))
        loss = nn.functional.cross_entropy(model(x).float(), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()  # fails-here
        print(f"step {step}: loss {loss.item():.4f}")


if __name__ == "__main__":
    path = os.path.join(tempfile.mkdtemp(), "fp32_pretrain.pt")
    pretrain_and_save(path)
    finetune(*resume(path))

"""FP16 fine-tuning resumed from a float32 checkpoint in the right order: the network is converted to half first, then the optimizer is constructed (eps=1e-4, representable in float16) and its saved state loaded, which casts the moment buffers to the float16 parameters
source: https://github.com/NVIDIA/apex/issues/32
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import torch
import torch.nn as nn


def make_model():
    return nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 4))


def pretrain_and_save(path):
    model = make_model()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, eps=1e-4)
    nn.functional.cross_entropy(model(torch.randn(16, 12)), torch.randint(0, 4, (16,))).backward()
    opt.step()
    torch.save({"model": model.state_dict(), "optimizer": opt.state_dict()}, path)


def resume(path):
    ckpt = torch.load(path)
    model = make_model()
    model.load_state_dict(ckpt["model"])
    model = model.half()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, eps=1e-4)
    optimizer.load_state_dict(ckpt["optimizer"])
    return model, optimizer


if __name__ == "__main__":
    torch.manual_seed(0)
    path = os.path.join(tempfile.mkdtemp(), "fp32_pretrain.pt")
    pretrain_and_save(path)
    model, optimizer = resume(path)
    for step in range(2):
        loss = nn.functional.cross_entropy(model(torch.randn(16, 12).half()).float(), torch.randint(0, 4, (16,)))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: loss {loss.item():.4f}")

"""Speech-translation fine-tuning script that stores its argparse.Namespace under "args" in every checkpoint; load_model_for_inference() later reads it with torch.load(path, map_location=...) under the torch 2.6+ default weights_only=True
source: https://github.com/facebookresearch/seamless_communication/issues/159
reported-error: UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported class argparse.Namespace
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL argparse.Namespace was not an allowed global by default. ... at line 43
root-cause: line 38
expect: DG011
"""
import argparse
import os
import tempfile

import torch
import torch.nn as nn


def parse_args(argv):
    p = argparse.ArgumentParser()
    p.add_argument("--d-model", type=int, default=32)
    p.add_argument("--lr", type=float, default=5e-4)
    p.add_argument("--tgt-lang", choices=["deu", "fra", "spa"], default="fra")
    p.add_argument("--save-dir", default=tempfile.mkdtemp())
    return p.parse_args(argv)


class UnitDecoder(nn.Module):
    def __init__(self, d_model):
        super().__init__()
        self.proj = nn.Linear(d_model, d_model)
        self.out = nn.Linear(d_model, 100)

    def forward(self, h):
        return self.out(torch.tanh(self.proj(h)))


def save_checkpoint(model, optimizer, args, step):
    path = os.path.join(args.save_dir, f"checkpoint_{step}.pt")
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": step,
                "args": args}, path)  # root-cause
    return path


def load_model_for_inference(path, device):
    state = torch.load(path, map_location=device)  # fails-here
    model = UnitDecoder(state["args"].d_model)
    model.load_state_dict(state["model"])
    return model.to(device).eval()


args = parse_args(["--tgt-lang", "deu"])
model = UnitDecoder(args.d_model)
optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
loss = model(torch.randn(4, args.d_model)).logsumexp(-1).mean()
loss.backward()
optimizer.step()
path = save_checkpoint(model, optimizer, args, 1000)
restored = load_model_for_inference(path, torch.device("cpu"))
print("restored decoder for", args.tgt_lang)

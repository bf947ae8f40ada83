"""Megatron-style pretraining resume: save_checkpoint stores the parsed argparse Namespace under state_dict["args"] next to the weights, and load_checkpoint's torch.load(checkpoint_name, map_location="cpu") now defaults to weights_only=True
source: https://github.com/ROCm/Megatron-LM/pull/56
reported-error: could not load the checkpoint: Weights only load failed ... WeightsUnpickler error: Unsupported global: GLOBAL argparse.Namespace was not an allowed global by default.
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL argparse.Namespace was not an allowed global by default. ... at line 50
root-cause: line 37
expect: DG011
"""
import argparse
import os
import tempfile

import torch
import torch.nn as nn


def parse_args(argv):
    parser = argparse.ArgumentParser(description="Megatron-LM Arguments")
    parser.add_argument("--hidden-size", type=int, default=64)
    parser.add_argument("--num-layers", type=int, default=2)
    parser.add_argument("--save", default=tempfile.mkdtemp())
    parser.add_argument("--load", default=None)
    return parser.parse_args(argv)


class GPTModel(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(args.hidden_size, args.hidden_size) for _ in range(args.num_layers)])


def get_checkpoint_name(checkpoints_path, iteration):
    return os.path.join(checkpoints_path, f"iter_{iteration:07d}", "model_optim_rng.pt")


def save_checkpoint(iteration, model, optimizer, args):
    state_dict = {
        "args": args,  # root-cause
        "checkpoint_version": 3.0,
        "iteration": iteration,
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),
    }
    name = get_checkpoint_name(args.save, iteration)
    os.makedirs(os.path.dirname(name), exist_ok=True)
    torch.save(state_dict, name)


def load_checkpoint(model, optimizer, args, iteration):
    checkpoint_name = get_checkpoint_name(args.load, iteration)
    state_dict = torch.load(checkpoint_name, map_location="cpu")  # fails-here
    model.load_state_dict(state_dict["model"])
    optimizer.load_state_dict(state_dict["optimizer"])
    return state_dict["iteration"]


def pretrain(args):
    model = GPTModel(args)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    save_checkpoint(100, model, optimizer, args)
    args.load = args.save
    resumed = GPTModel(args)
    iteration = load_checkpoint(resumed, torch.optim.Adam(resumed.parameters(), lr=1e-4), args, 100)
    print("resumed from iteration", iteration)


if __name__ == "__main__":
    pretrain(parse_args([]))

"""MovieRec autoencoder resumed from a checkpoint written by a GPU run, with setup_to_resume loading it through map_location="cpu"; load_state_dict then copies the weights and optimizer state onto the current device
source: https://github.com/A1ex-Chen/DL_project_log/blob/84bbe0a7d77ae96b1800bf6d99dda1901ad1c155/MovieRec/MovieRec/utils_setup_to_resume.py
reported-error: none (fixed version: torch.load(..., map_location="cpu"))
outcome: ok
root-cause: -
expect: none
"""
import argparse
import os
import tempfile

import torch
import torch.nn as nn
import torch.serialization as serialization

STATE_DICT_KEY = "model_state_dict"
OPTIMIZER_STATE_DICT_KEY = "optimizer_state_dict"


# ---- models/dae.py
class DAEModel(nn.Module):
    def __init__(self, num_items, hidden=32):
        super().__init__()
        self.encoder = nn.Sequential(nn.Dropout(0.5), nn.Linear(num_items, hidden), nn.Tanh())
        self.decoder = nn.Linear(hidden, num_items)

    def forward(self, x):
        return self.decoder(self.encoder(x))


# ---- utils.py
def setup_to_resume(args, model, optimizer):
    chk_dict = torch.load(os.path.join(os.path.abspath(args.resume_training), "models/checkpoint-recent.pth"), map_location="cpu")
    model.load_state_dict(chk_dict[STATE_DICT_KEY])
    optimizer.load_state_dict(chk_dict[OPTIMIZER_STATE_DICT_KEY])


# ---- the experiment folder as left by a GPU training run
def write_gpu_checkpoint(export_root, num_items):
    os.makedirs(os.path.join(export_root, "models"), exist_ok=True)
    model = DAEModel(num_items)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save({STATE_DICT_KEY: model.state_dict(), OPTIMIZER_STATE_DICT_KEY: optimizer.state_dict()},
                   os.path.join(export_root, "models", "checkpoint-recent.pth"))
    finally:
        serialization.location_tag = original


# ---- main.py
def train(args):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = DAEModel(args.num_items).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    if args.resume_training:
        setup_to_resume(args, model, optimizer)
    batch = (torch.rand(16, args.num_items) > 0.8).float().to(device)
    loss = -(torch.log_softmax(model(batch), 1) * batch).sum(1).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print("resumed, loss", round(loss.item(), 4))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--resume_training", default=None)
    parser.add_argument("--num_items", type=int, default=50)
    parser.add_argument("--lr", type=float, default=1e-3)
    export = tempfile.mkdtemp()
    write_gpu_checkpoint(export, 50)
    train(parser.parse_args(["--resume_training", export]))

"""Translation checkpoint that stores the training arguments as vars(args) (a dict of Python primitives) and rebuilds the Namespace after loading, so torch.load's default weights_only=True accepts it
source: https://github.com/facebookresearch/fairseq/issues/5603
reported-error: none (fixed version: no argparse.Namespace pickled in the checkpoint)
outcome: ok
root-cause: -
expect: none
"""
import argparse
import os
import tempfile

import torch
import torch.nn as nn


def build_model(args, vocab=64):
    return nn.Sequential(nn.Embedding(vocab, args.encoder_embed_dim), nn.Linear(args.encoder_embed_dim, vocab))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--encoder-embed-dim", type=int, default=32)
    parser.add_argument("--lr", type=float, default=5e-4)
    parser.add_argument("--save-dir", default=tempfile.mkdtemp())
    args = parser.parse_args()
    model = build_model(args)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    src = torch.randint(0, 64, (8, 10))
    loss = nn.functional.cross_entropy(model(src).view(-1, 64), src.view(-1))
    loss.backward()
    optimizer.step()
    path = os.path.join(args.save_dir, "checkpoint_best.pt")
    torch.save({"args": vars(args), "model": model.state_dict(), "extra_state": {"epoch": 1, "val_loss": float(loss.item())}}, path)

    state = torch.load(path, map_location="cpu")
    restored_args = argparse.Namespace(**state["args"])
    restored = build_model(restored_args)
    restored.load_state_dict(state["model"])
    print("restored epoch", state["extra_state"]["epoch"], "dim", restored_args.encoder_embed_dim)

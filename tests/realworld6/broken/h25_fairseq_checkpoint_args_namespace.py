"""fairseq-style translation checkpoint that stores the argparse Namespace next to the weights; fairseq-interactive later loads it with torch.load and the default weights_only=True
source: https://github.com/facebookresearch/fairseq/issues/5603
reported-error: _pickle.UnpicklingError: Weights only load failed ... Please use torch.serialization.add_safe_globals([argparse.Namespace]) ... (then, with an explicit pickle_module: RuntimeError: Can not safely load weights when explicit pickle_module is specified)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL argparse.Namespace was not an allowed global by default. ... at line 49
root-cause: line 39
expect: DG011
"""
import argparse
import os
import tempfile

import torch
import torch.nn as nn


def get_parser():
    parser = argparse.ArgumentParser("fairseq-train")
    parser.add_argument("--arch", default="transformer_tiny")
    parser.add_argument("--encoder-embed-dim", type=int, default=32)
    parser.add_argument("--lr", type=float, default=5e-4)
    parser.add_argument("--max-epoch", type=int, default=1)
    parser.add_argument("--save-dir", default=tempfile.mkdtemp())
    return parser


class TinyTransformer(nn.Module):
    def __init__(self, args, vocab=64):
        super().__init__()
        self.embed = nn.Embedding(vocab, args.encoder_embed_dim)
        self.layer = nn.TransformerEncoderLayer(args.encoder_embed_dim, 4, 64, batch_first=True)
        self.out = nn.Linear(args.encoder_embed_dim, vocab)

    def forward(self, src_tokens):
        return self.out(self.layer(self.embed(src_tokens)))


def save_checkpoint(args, model, optimizer, epoch, filename):
    state_dict = {
        "args": args,  # root-cause
        "model": model.state_dict(),
        "optimizer_history": [{"criterion_name": "CrossEntropyCriterion", "optimizer_name": "Adam", "num_updates": epoch * 10}],
        "last_optimizer_state": optimizer.state_dict(),
        "extra_state": {"epoch": epoch, "val_loss": 3.21},
    }
    torch.save(state_dict, filename)


def load_checkpoint_to_cpu(path, arg_overrides=None):
    state = torch.load(path, map_location="cpu")  # root-cause-alt # fails-here
    args = state["args"]
    if arg_overrides is not None:
        for arg_name, arg_val in arg_overrides.items():
            setattr(args, arg_name, arg_val)
    return state


def train(args):
    model = TinyTransformer(args)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(1, args.max_epoch + 1):
        src = torch.randint(0, 64, (8, 10))
        loss = nn.functional.cross_entropy(model(src).view(-1, 64), src.view(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch:03d} | loss {loss.item():.3f}")
        save_checkpoint(args, model, optimizer, epoch, os.path.join(args.save_dir, "checkpoint_best.pt"))


def interactive(args):
    state = load_checkpoint_to_cpu(os.path.join(args.save_dir, "checkpoint_best.pt"), {"beam": 5})
    model = TinyTransformer(state["args"])
    model.load_state_dict(state["model"])
    print("hypothesis:", model(torch.randint(0, 64, (1, 6))).argmax(-1).tolist())


if __name__ == "__main__":
    args = get_parser().parse_args()
    train(args)
    interactive(args)

"""Resume an FP32 translation run in FP16: the trainer restores the model and the Adam state from the FP32 checkpoint, then applies the new --fp16 option by calling model.half() on the already-optimised model before continuing to train
source: https://github.com/facebookresearch/fairseq/issues/1739
reported-error: question: train with FP32 for some epochs, then convert to FP16 and continue training; "Something might break in the optimizer"
outcome: RuntimeError: expected dtype float for `end` but got dtype c10::Half at line 40
root-cause: line 53
expect: DG015
"""
import argparse
import os
import tempfile

import torch
import torch.nn as nn


class TransformerModel(nn.Module):
    def __init__(self, vocab=64, dim=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.layer = nn.TransformerEncoderLayer(dim, 4, 64, batch_first=True)
        self.output_projection = nn.Linear(dim, vocab)

    def forward(self, src_tokens):
        return self.output_projection(self.layer(self.embed_tokens(src_tokens)))


class Trainer:
    def __init__(self, args, model):
        self.args = args
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=args.lr, eps=1e-4)
        self.num_updates = 0

    def train_step(self, sample):
        self.model.train()
        logits = self.model(sample["src_tokens"])
        loss = nn.functional.cross_entropy(logits.float().reshape(-1, logits.size(-1)), sample["target"].reshape(-1))
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()  # fails-here
        self.num_updates += 1
        return loss.item()

    def save_checkpoint(self, path):
        torch.save({"model": self.model.state_dict(), "last_optimizer_state": self.optimizer.state_dict(), "num_updates": self.num_updates}, path)

    def load_checkpoint(self, path):
        state = torch.load(path)
        self.model.load_state_dict(state["model"])
        self.optimizer.load_state_dict(state["last_optimizer_state"])
        self.num_updates = state["num_updates"]
        if self.args.fp16:
            self.model.half()  # root-cause


def get_batch(seed, bsz=8, tgt_len=10, vocab=64):
    g = torch.Generator().manual_seed(seed)
    tokens = torch.randint(0, vocab, (bsz, tgt_len + 1), generator=g)
    return {"src_tokens": tokens[:, :-1], "target": tokens[:, 1:]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", type=float, default=5e-4)
    parser.add_argument("--fp16", action="store_true")
    parser.add_argument("--save-dir", default=tempfile.mkdtemp())
    ckpt = os.path.join(parser.parse_args([]).save_dir, "checkpoint_last.pt")

    fp32_args = parser.parse_args([])
    trainer = Trainer(fp32_args, TransformerModel())
    for i in range(3):
        print("fp32 update", i, trainer.train_step(get_batch(i)))
    trainer.save_checkpoint(ckpt)

    fp16_args = parser.parse_args(["--fp16"])
    trainer = Trainer(fp16_args, TransformerModel())
    trainer.load_checkpoint(ckpt)
    for i in range(3, 6):
        print("fp16 update", i, trainer.train_step(get_batch(i)))


if __name__ == "__main__":
    main()

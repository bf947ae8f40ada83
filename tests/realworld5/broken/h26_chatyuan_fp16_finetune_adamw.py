"""Seq2seq chat model fine-tuned with the whole model cast to fp16 (model.half()) and a plain AdamW with the default eps=1e-8
source: https://github.com/clue-ai/ChatYuan/issues/58
reported-error: silent: with FP16 enabled the fine-tuning loss is nan (loss一直为nan)
outcome: ok (silent: loss 6.2885 at step 0, then nan from step 1 on; AdamW's eps=1e-8 is 0 in float16, so the first optimizer.step at line 45 divides 0 by 0 for the embedding rows that got no gradient)
root-cause: line 58
expect: DG012
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyT5(nn.Module):
    def __init__(self, vocab_size=500, d_model=32):
        super().__init__()
        self.shared = nn.Embedding(vocab_size, d_model)
        self.encoder = nn.GRU(d_model, d_model, batch_first=True)
        self.decoder = nn.GRU(d_model, d_model, batch_first=True)
        self.lm_head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, input_ids, labels):
        _, h = self.encoder(self.shared(input_ids))
        dec_in = F.pad(labels[:, :-1], (1, 0), value=0)
        out, _ = self.decoder(self.shared(dec_in), h)
        logits = self.lm_head(out)
        return F.cross_entropy(logits.float().reshape(-1, logits.size(-1)), labels.reshape(-1))


def get_batches(n_batches=4, batch_size=4, src_len=12, tgt_len=8, used_vocab=50):
    g = torch.Generator().manual_seed(0)
    for _ in range(n_batches):
        yield (torch.randint(1, used_vocab, (batch_size, src_len), generator=g),
               torch.randint(1, used_vocab, (batch_size, tgt_len), generator=g))


def train(model, optimizer, epochs):
    model.train()
    for epoch in range(epochs):
        for step, (source_ids, target_ids) in enumerate(get_batches()):
            loss = model(source_ids, target_ids)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()  # fails-here
            print(f"epoch {epoch} step {step} loss {loss.item():.4f}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fp16", action="store_true", default=True)
    parser.add_argument("--lr", type=float, default=1e-4)
    parser.add_argument("--epochs", type=int, default=1)
    args = parser.parse_args()
    torch.manual_seed(0)
    model = TinyT5()
    if args.fp16:
        model = model.half()  # root-cause
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)  # root-cause-alt
    train(model, optimizer, args.epochs)


if __name__ == "__main__":
    main()

"""Full fine-tuning loop with an end-of-epoch hook: quick_eval() "speeds up" evaluation by calling model.half() on the live model (and never converts it back); the next AdamW step mixes float16 gradients with the float32 moment buffers from epoch 0
source: https://github.com/ssbuild/chatglm_finetuning/issues/188
reported-error: RuntimeError: expected scalar type Half but found Float (full fine-tuning, raised after the model was partly converted to half)
outcome: RuntimeError: expected dtype float for `end` but got dtype c10::Half at line 44
root-cause: line 29
expect: DG015
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyLM(nn.Module):
    def __init__(self, vocab=100, d=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.block = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
        self.lm_head = nn.Linear(d, vocab)

    def forward(self, ids):
        h = self.emb(ids)
        h = h + self.block(h)
        return self.lm_head(h)


@torch.no_grad()
def quick_eval(model, ids):
    model.eval()
    model.half()  # root-cause
    logits = model(ids[:, :-1])
    loss = F.cross_entropy(logits.float().reshape(-1, logits.size(-1)), ids[:, 1:].reshape(-1))
    model.train()
    return loss.item()


def train(model, data, epochs=2):
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        for ids in data.split(8):
            logits = model(ids[:, :-1])
            loss = F.cross_entropy(logits.float().reshape(-1, logits.size(-1)), ids[:, 1:].reshape(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()  # fails-here
        print("epoch", epoch, "train", round(loss.item(), 4), "eval", round(quick_eval(model, data[:8]), 4))


torch.manual_seed(0)
train(TinyLM(), torch.randint(0, 100, (32, 17)))

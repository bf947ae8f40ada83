"""Full-parameter chat fine-tuning in the style of jzhang38/TinyLlama's sft/finetune.py (TinyLlama #32): to fit the GPU the user added model = model.half() after from_pretrained and kept the script's Trainer settings (AdamW, learning_rate 1e-5, adam_beta2 0.999, default adam_epsilon 1e-8, max_grad_norm 1.0, no fp16 flag), so AdamW updates float16 weights with float16 state: eps=1e-8 is 0 in float16 and the squared gradients of most entries underflow, so the first step divides by zero and the weights become inf/NaN
source: https://github.com/jzhang38/TinyLlama/issues/32
reported-error: "model = model.half() ... It now fits on my gpu, but the training loss becomes 0 after a single batch, and the evaluation loss is nan"; maintainer: "I think you conflate the idea of mixed-precision training and half-precision training. In mixed-precision training, model weight is updated as 32-bit ..." (no exception)
outcome: ok (silent: every logged training loss after the first AdamW step is nan, both eval losses are nan and at the end 100.0% of the float16 weight entries are NaN or inf, where ax_c04 (same learning rate, float32 weights) ends with an eval loss of 4.2537; the non-finite weights are written by opt.step() at line 138)
root-cause: line 154
expect: DG012
"""
import math
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)
out_dir = tempfile.mkdtemp()
IGNORE_INDEX = -100


# ---- a (very) small LlamaForCausalLM: RMSNorm, rotary attention, SwiGLU MLP
class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.weight, self.eps = nn.Parameter(torch.ones(dim)), eps

    def forward(self, x):
        xf = x.float()
        return self.weight * (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + self.eps)).to(x.dtype)


def rotary(x, base=10000.):
    T, d = x.shape[-2], x.shape[-1]
    inv = 1.0 / base ** (torch.arange(0, d, 2).float() / d)
    ang = torch.outer(torch.arange(T).float(), inv)
    cos, sin = torch.cat([ang.cos()] * 2, -1).to(x.dtype), torch.cat([ang.sin()] * 2, -1).to(x.dtype)
    x1, x2 = x[..., :d // 2], x[..., d // 2:]
    return x * cos + torch.cat([-x2, x1], -1) * sin


class LlamaBlock(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.input_layernorm, self.post_attention_layernorm = RMSNorm(dim), RMSNorm(dim)
        self.qkv, self.o_proj = nn.Linear(dim, 3 * dim, bias=False), nn.Linear(dim, dim, bias=False)
        self.gate, self.up, self.down = (nn.Linear(dim, 4 * dim, bias=False), nn.Linear(dim, 4 * dim, bias=False),
                                         nn.Linear(4 * dim, dim, bias=False))

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(self.input_layernorm(x)).view(B, T, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        a = F.scaled_dot_product_attention(rotary(q), rotary(k), v, is_causal=True)
        x = x + self.o_proj(a.transpose(1, 2).reshape(B, T, C))
        h = self.post_attention_layernorm(x)
        return x + self.down(F.silu(self.gate(h)) * self.up(h))


class LlamaForCausalLM(nn.Module):
    def __init__(self, vocab=64, dim=64, layers=2, heads=4):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList([LlamaBlock(dim, heads) for _ in range(layers)])
        self.norm, self.lm_head = RMSNorm(dim), nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids, labels=None):
        x = self.embed_tokens(input_ids)
        for layer in self.layers:
            x = layer(x)
        logits = self.lm_head(self.norm(x))
        loss = None
        if labels is not None:
            loss = F.cross_entropy(logits[:, :-1].flatten(0, 1).float(), labels[:, 1:].flatten(), ignore_index=IGNORE_INDEX)
        return loss, logits

    @classmethod
    def from_pretrained(cls, path):
        model = cls()
        model.load_state_dict(torch.load(path, weights_only=True))
        return model


# ---- oasst1-like data: "### Human: <a> plus <b> ### Assistant: <a+b>" as token ids, source masked in labels
BOS, HUMAN, ASSIST, PLUS, EOS = 1, 2, 3, 4, 5


def make_example():
    a, b = np.random.randint(0, 25, 2)
    source = [BOS, HUMAN, 10 + a, PLUS, 10 + b, ASSIST]          # source_max_len 16
    target = [10 + a + b, EOS]
    return source, target


def collate(examples):                                          # DataCollatorForCausalLM, train_on_source=False
    ids = [torch.tensor(s + t) for s, t in examples]
    labels = [torch.tensor([IGNORE_INDEX] * len(s) + t) for s, t in examples]
    return torch.stack(ids), torch.stack(labels)


train_set = [make_example() for _ in range(512)]
eval_set = [make_example() for _ in range(128)]


# ---- transformers.Trainer, the parts finetune.py uses (optim adamw_torch, constant schedule with warmup)
class Trainer:
    def __init__(self, model, args):
        self.model, self.args = model, args

    def create_optimizer(self):
        decay = [p for n, p in self.model.named_parameters() if "norm" not in n]
        no_decay = [p for n, p in self.model.named_parameters() if "norm" in n]
        groups = [{"params": decay, "weight_decay": self.args["weight_decay"]}, {"params": no_decay, "weight_decay": 0.0}]
        return torch.optim.AdamW(groups, lr=self.args["learning_rate"],  # root-cause-alt
                                 betas=(self.args["adam_beta1"], self.args["adam_beta2"]), eps=self.args["adam_epsilon"])

    def evaluate(self):
        self.model.eval()
        with torch.no_grad():
            ids, labels = collate(eval_set)
            loss, _ = self.model(ids, labels)
        self.model.train()
        return loss.item()

    def train(self):
        opt = self.create_optimizer()
        bs, steps = self.args["per_device_train_batch_size"], len(train_set) // self.args["per_device_train_batch_size"]
        warmup = max(1, int(self.args["warmup_ratio"] * steps * self.args["num_train_epochs"]))
        sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / warmup))
        step = 0
        for epoch in range(self.args["num_train_epochs"]):
            for i in range(0, len(train_set), bs):
                ids, labels = collate(train_set[i:i + bs])
                loss, _ = self.model(ids, labels)
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.args["max_grad_norm"])
                opt.step()  # fails-here
                sched.step()
                opt.zero_grad()
                if step % self.args["logging_steps"] == 0:
                    print(f"{{'loss': {loss.item():.4f}, 'step': {step}}}")
                step += 1
            print(f"epoch {epoch} eval_loss: {self.evaluate():.4f}")


# a "pretrained" checkpoint to start from
ckpt = os.path.join(out_dir, "tinyllama_base.pt")
torch.save(LlamaForCausalLM().state_dict(), ckpt)

args = dict(learning_rate=1e-5, adam_beta1=0.9, adam_beta2=0.999, adam_epsilon=1e-8, weight_decay=0.0,
            max_grad_norm=1.0, warmup_ratio=0.05, per_device_train_batch_size=16, num_train_epochs=2, logging_steps=10)
model = LlamaForCausalLM.from_pretrained(ckpt)
model = model.half()  # root-cause
trainer = Trainer(model, args)
trainer.train()
bad = sum((~torch.isfinite(p)).sum().item() for p in model.parameters())
print(f"non-finite weight entries after training: {100 * bad / sum(p.numel() for p in model.parameters()):.1f}%")

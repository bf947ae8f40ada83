"""Continued pre-training with LoRA in the style of ymcui/Chinese-LLaMA-Alpaca's scripts/run_clm_pt_with_peft.py (Chinese-LLaMA-Alpaca #310 as in ax06) with the usual workaround for float16 checkpoints: the frozen base model stays float16 as loaded (--torch_dtype float16), but after get_peft_model every trainable parameter (the LoRA matrices and the modules_to_save copies of embed_tokens and lm_head) is upcast to float32, so the Trainer's float16 autocast and GradScaler unscale float32 gradients
source: https://github.com/ymcui/Chinese-LLaMA-Alpaca/issues/310
reported-error: (none filed; the fixed situation of ax06)
outcome: ok
root-cause: -
expect: none
"""
import copy
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
        self.q_proj, self.k_proj, self.v_proj = (nn.Linear(dim, dim, bias=False) for _ in range(3))
        self.o_proj = nn.Linear(dim, dim, bias=False)
        self.gate, self.up, self.down = (nn.Linear(dim, 4 * dim, bias=False), nn.Linear(dim, 4 * dim, bias=False),
                                         nn.Linear(4 * dim, dim, bias=False))

    def forward(self, x):
        B, T, C = x.shape
        h = self.input_layernorm(x)
        q, k, v = (p(h).view(B, T, self.heads, C // self.heads).transpose(1, 2) for p in (self.q_proj, self.k_proj, self.v_proj))
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
    def from_pretrained(cls, path, torch_dtype=None):
        model = cls()
        model.load_state_dict(torch.load(path, weights_only=True))
        return model.to(torch_dtype) if torch_dtype is not None else model


# ---- peft 0.3: LoRA linear layers and ModulesToSaveWrapper, reduced
class LoraLinear(nn.Module):
    def __init__(self, base, r=8, alpha=32, dropout=0.05):
        super().__init__()
        self.base = base
        self.lora_A = nn.Linear(base.in_features, r, bias=False)          # created in the default dtype (float32)
        self.lora_B = nn.Linear(r, base.out_features, bias=False)
        nn.init.zeros_(self.lora_B.weight)
        self.scaling, self.dropout = alpha / r, nn.Dropout(dropout)

    def forward(self, x):
        return self.base(x) + self.lora_B(self.lora_A(self.dropout(x))) * self.scaling


class ModulesToSaveWrapper(nn.Module):
    def __init__(self, module):
        super().__init__()
        self.original_module = module
        self.modules_to_save = copy.deepcopy(module)                       # same dtype as the loaded model
        for p in self.modules_to_save.parameters():
            p.requires_grad = True

    def forward(self, *args):
        return self.modules_to_save(*args)


def get_peft_model(model, target_modules, modules_to_save, r=8, alpha=32, dropout=0.05):
    for p in model.parameters():
        p.requires_grad = False
    for block in model.layers:
        for name in target_modules:
            for owner in (block, ):
                if hasattr(owner, name):
                    setattr(owner, name, LoraLinear(getattr(owner, name), r, alpha, dropout))
    for name in modules_to_save:
        setattr(model, name, ModulesToSaveWrapper(getattr(model, name)))
    return model


# ---- a tokenised plain-text corpus, grouped into blocks of block_size (group_texts)
def corpus(n_tokens=40000, vocab=64):
    # a first-order Markov "language" so there is something to learn
    trans = np.random.dirichlet(0.1 * np.ones(vocab), size=vocab)
    toks = [1]
    for _ in range(n_tokens - 1):
        toks.append(np.random.choice(vocab, p=trans[toks[-1]]))
    return torch.tensor(toks)


block_size = 64
tokens = corpus()
blocks = tokens[: len(tokens) // block_size * block_size].view(-1, block_size)


# ---- transformers.Trainer with fp16=True (native AMP), the parts a training step uses
class Trainer:
    def __init__(self, model, args):
        self.model, self.args = model, args
        self.scaler = torch.amp.GradScaler("cpu") if args["fp16"] else None

    def train(self):
        params = [p for p in self.model.parameters() if p.requires_grad]
        opt = torch.optim.AdamW(params, lr=self.args["learning_rate"], weight_decay=self.args["weight_decay"])
        bs = self.args["per_device_train_batch_size"]
        for step in range(self.args["max_steps"]):
            batch = blocks[torch.randint(0, len(blocks), (bs,))]
            with torch.autocast("cpu", dtype=torch.float16, enabled=self.args["fp16"]):
                loss, _ = self.model(batch, labels=batch)
            self.scaler.scale(loss).backward()
            self.scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(params, self.args["max_grad_norm"])
            self.scaler.step(opt)
            self.scaler.update()
            opt.zero_grad()
            if step % 10 == 0:
                print(f"step {step} loss {loss.item():.4f}")


# ---- run_clm_pt_with_peft.py
ckpt = os.path.join(out_dir, "chinese_llama_plus_7b.pt")
torch.save(LlamaForCausalLM().state_dict(), ckpt)
args = dict(torch_dtype="float16", fp16=True, learning_rate=2e-4, weight_decay=0.0, max_grad_norm=1.0,
            per_device_train_batch_size=8, max_steps=30,
            lora_trainable="q_proj,v_proj,k_proj,o_proj,gate,down,up", modules_to_save="embed_tokens,lm_head")
torch_dtype = args["torch_dtype"] if args["torch_dtype"] in ["auto", None] else getattr(torch, args["torch_dtype"])
model = LlamaForCausalLM.from_pretrained(ckpt, torch_dtype=torch_dtype)
model = get_peft_model(model, args["lora_trainable"].split(","), args["modules_to_save"].split(","))
# the fp16 gradient scaler cannot unscale fp16 parameters: the trainable ones are made float32
for p in model.parameters():
    if p.requires_grad and p.dtype in (torch.float16, torch.bfloat16):
        p.data = p.data.float()
frozen = {p.dtype for p in model.parameters() if not p.requires_grad}
print(f"frozen dtypes {frozen}, trainable dtypes {({p.dtype for p in model.parameters() if p.requires_grad})}")
n_train = sum(p.numel() for p in model.parameters() if p.requires_grad)
print(f"trainable params: {n_train} || all params: {sum(p.numel() for p in model.parameters())}")
trainer = Trainer(model, args)
trainer.train()
torch.save({k: v for k, v in model.state_dict().items() if "lora" in k or "modules_to_save" in k},
           os.path.join(out_dir, "adapter_model.bin"))

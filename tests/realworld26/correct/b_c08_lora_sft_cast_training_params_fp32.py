"""LoRA fine-tuning of a float16 causal LM with trainable modules_to_save copies, where a cast_training_params helper upcasts only the parameters that require grad to float32 after the adapters are attached (the diffusers LoRA fix), so the frozen base stays float16, autocast runs the forward in fp16 and the GradScaler unscales float32 gradients
source: https://github.com/huggingface/diffusers/pull/6119
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

CONFIG = {"vocab": 120, "new_tokens": 8, "dim": 32, "r": 4, "lora_alpha": 8, "lr": 2e-4, "max_grad_norm": 1.0,
          "torch_dtype": torch.float16, "fp16": True, "modules_to_save": ["embed_tokens", "lm_head"]}


# ---- modeling (stands in for AutoModelForCausalLM.from_pretrained(..., torch_dtype=torch.float16))
class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, hidden_states):
        input_dtype = hidden_states.dtype
        hidden_states = hidden_states.to(torch.float32)
        hidden_states = hidden_states * torch.rsqrt(hidden_states.pow(2).mean(-1, keepdim=True) + self.eps)
        return self.weight * hidden_states.to(input_dtype)


class TinyCausalLM(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.q_proj, self.v_proj = nn.Linear(dim, dim), nn.Linear(dim, dim)
        self.norm = RMSNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def resize_token_embeddings(self, new_vocab):
        old = self.embed_tokens.weight.data
        self.embed_tokens = nn.Embedding(new_vocab, old.shape[1]).to(old.dtype)
        self.embed_tokens.weight.data[: old.shape[0]] = old
        self.lm_head = nn.Linear(old.shape[1], new_vocab, bias=False).to(old.dtype)

    def forward(self, input_ids):
        h = self.embed_tokens(input_ids)
        scores = self.q_proj(h) @ h.transpose(1, 2) / h.shape[-1] ** 0.5
        causal = torch.ones(scores.shape[-2:], dtype=torch.bool).triu(1)
        h = h + torch.softmax(scores.masked_fill(causal, float("-inf")), -1) @ self.v_proj(h)
        return self.lm_head(self.norm(h))


# ---- peft/tuners/lora.py, peft/utils/other.py
class LoraLinear(nn.Module):
    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        self.lora_A = nn.Linear(base.in_features, r, bias=False, dtype=torch.float32)
        self.lora_B = nn.Linear(r, base.out_features, bias=False, dtype=torch.float32)
        nn.init.zeros_(self.lora_B.weight)
        self.scaling = alpha / r

    def forward(self, x):
        return self.base(x) + self.lora_B(self.lora_A(x)) * self.scaling


class ModulesToSaveWrapper(nn.Module):
    def __init__(self, module_to_save):
        super().__init__()
        self.original_module = module_to_save
        self.modules_to_save = copy.deepcopy(module_to_save)
        self.modules_to_save.requires_grad_(True)

    def forward(self, *args):
        return self.modules_to_save(*args)


def get_peft_model(model, cfg):
    model.requires_grad_(False)
    for name in ("q_proj", "v_proj"):
        setattr(model, name, LoraLinear(getattr(model, name), cfg["r"], cfg["lora_alpha"]))
    for name in cfg["modules_to_save"]:
        setattr(model, name, ModulesToSaveWrapper(getattr(model, name)))
    return model


def cast_training_params(model, dtype=torch.float32):
    for param in model.parameters():
        if param.requires_grad:
            param.data = param.to(dtype)


# ---- trainer.py
def training_step(model, optimizer, scaler, batch, cfg):
    with torch.autocast("cpu", dtype=torch.float16, enabled=cfg["fp16"]):
        logits = model(batch[:, :-1])
        loss = F.cross_entropy(logits.float().reshape(-1, logits.shape[-1]), batch[:, 1:].reshape(-1))
    scaler.scale(loss).backward()
    scaler.unscale_(optimizer)
    torch.nn.utils.clip_grad_norm_([p for p in model.parameters() if p.requires_grad], cfg["max_grad_norm"])
    scaler.step(optimizer)
    scaler.update()
    optimizer.zero_grad()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    base = TinyCausalLM(CONFIG["vocab"], CONFIG["dim"]).to(CONFIG["torch_dtype"])
    base.resize_token_embeddings(CONFIG["vocab"] + CONFIG["new_tokens"])
    model = get_peft_model(base, CONFIG)
    if CONFIG["fp16"]:
        cast_training_params(model, dtype=torch.float32)
    optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=CONFIG["lr"])
    scaler = torch.amp.GradScaler("cpu", enabled=CONFIG["fp16"])
    batch = torch.randint(0, CONFIG["vocab"] + CONFIG["new_tokens"], (4, 16))
    print("loss", training_step(model, optimizer, scaler, batch, CONFIG))

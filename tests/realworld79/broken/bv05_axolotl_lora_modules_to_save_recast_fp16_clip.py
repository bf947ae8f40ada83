"""An axolotl-style LoRA finetune (re-typed: cfg from a YAML-like dict, load_model's dtype passes, load_lora with peft-like modules_to_save, an HF-Trainer-like fp16 loop with gradient clipping) of a tiny Llama with `fp16: true` and `lora_modules_to_save: [embed_tokens, lm_head]`: load_model first upcasts embed_tokens/lm_head to float32, then, because an adapter is used, casts them back to cfg.torch_dtype (float16) "for flash attention"; the trainable modules_to_save copies are made from those float16 modules, so the clipping's unscale meets float16 gradients
source: https://github.com/axolotl-ai-cloud/axolotl/issues/1031
reported-error: ValueError: Attempting to unscale FP16 gradients. (fp16 LoRA run with lora_modules_to_save embed_tokens and lm_head; the maintainer: "I'm wondering if we are even supposed to be recasting to fp16. the original qlora only recasts when bf16 is used" and asks to comment out the recast lines in utils/models.py)
outcome: ValueError: Attempting to unscale FP16 gradients. at line 173
root-cause: line 155
expect: DG014
"""
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

CFG_YAML = {
    "base_model": "tiny-llama", "is_llama_derived_model": True, "fp16": True, "bf16": False,
    "adapter": "lora", "lora_r": 8, "lora_alpha": 16, "lora_dropout": 0.05, "lora_target_linear": True,
    "lora_modules_to_save": ["embed_tokens", "lm_head"], "flash_attention": False, "fsdp": None,
    "learning_rate": 2e-4, "micro_batch_size": 2, "gradient_accumulation_steps": 2, "max_steps": 3,
    "max_grad_norm": 1.0,
}


class DictDefault(dict):
    def __getattr__(self, name):
        return self.get(name)


def normalize_config(cfg):
    cfg.torch_dtype = torch.bfloat16 if cfg.bf16 else torch.float16 if cfg.fp16 else torch.float32
    return cfg


# ---- a tiny Llama (HF module names) -------------------------------------------------------
class LlamaRMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.weight, self.eps = nn.Parameter(torch.ones(dim)), eps

    def forward(self, x):
        dtype = x.dtype
        x = x.float()
        x = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)
        return self.weight * x.to(dtype)


class LlamaDecoderLayer(nn.Module):
    def __init__(self, dim, heads=4):
        super().__init__()
        self.heads = heads
        self.input_layernorm, self.post_attention_layernorm = LlamaRMSNorm(dim), LlamaRMSNorm(dim)
        self.q_proj, self.k_proj, self.v_proj, self.o_proj = (nn.Linear(dim, dim, bias=False) for _ in range(4))
        self.gate_proj, self.up_proj = nn.Linear(dim, 2 * dim, bias=False), nn.Linear(dim, 2 * dim, bias=False)
        self.down_proj = nn.Linear(2 * dim, dim, bias=False)

    def forward(self, h):
        b, t, d = h.shape
        x = self.input_layernorm(h)
        q, k, v = (p(x).view(b, t, self.heads, d // self.heads).transpose(1, 2) for p in (self.q_proj, self.k_proj, self.v_proj))
        attn = F.scaled_dot_product_attention(q, k, v, is_causal=True).transpose(1, 2).reshape(b, t, d)
        h = h + self.o_proj(attn)
        x = self.post_attention_layernorm(h)
        return h + self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class LlamaForCausalLM(nn.Module):
    def __init__(self, vocab=128, dim=64, layers=2, dtype=torch.float32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList([LlamaDecoderLayer(dim) for _ in range(layers)])
        self.norm = LlamaRMSNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)
        self.to(dtype)

    def forward(self, input_ids, labels):
        h = self.embed_tokens(input_ids)
        for layer in self.layers:
            h = layer(h)
        logits = self.lm_head(self.norm(h)).float()
        return F.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]), labels[:, 1:].reshape(-1))


# ---- peft (re-typed subset) ---------------------------------------------------------------
class LoraLinear(nn.Module):
    def __init__(self, base_layer, r, alpha, dropout):
        super().__init__()
        self.base_layer = base_layer
        self.lora_A = nn.Linear(base_layer.in_features, r, bias=False)
        self.lora_B = nn.Linear(r, base_layer.out_features, bias=False)
        nn.init.kaiming_uniform_(self.lora_A.weight, a=math.sqrt(5))
        nn.init.zeros_(self.lora_B.weight)
        self.lora_dropout, self.scaling = nn.Dropout(dropout), alpha / r

    def forward(self, x):
        result = self.base_layer(x)
        lora = self.lora_B(self.lora_A(self.lora_dropout(x.to(self.lora_A.weight.dtype))))
        return (result + lora * self.scaling).to(result.dtype)


class ModulesToSaveWrapper(nn.Module):
    def __init__(self, module_to_save):
        super().__init__()
        self.original_module = module_to_save
        self.modules_to_save = copy.deepcopy(module_to_save)
        self.modules_to_save.requires_grad_(True)

    def forward(self, *args):
        return self.modules_to_save(*args)


def get_peft_model(model, r, alpha, dropout, target_modules, modules_to_save):
    model.requires_grad_(False)
    for name, module in list(model.named_modules()):
        leaf = name.rpartition(".")[2]
        if leaf in target_modules and isinstance(module, nn.Linear):
            parent = model.get_submodule(name.rpartition(".")[0])
            setattr(parent, leaf, LoraLinear(module, r, alpha, dropout))
    for leaf in modules_to_save or []:
        setattr(model, leaf, ModulesToSaveWrapper(getattr(model, leaf)))
    return model


# ---- axolotl utils/models.py (re-typed) ---------------------------------------------------
def find_all_linear_names(model):
    names = {n.rpartition(".")[2] for n, m in model.named_modules() if isinstance(m, nn.Linear)}
    names.discard("lm_head")  # needed for 16-bit
    return sorted(names)


def load_lora(model, cfg):
    lora_target_modules = find_all_linear_names(model) if cfg.lora_target_linear else []
    return get_peft_model(model, cfg.lora_r, cfg.lora_alpha, cfg.lora_dropout, lora_target_modules,
                          cfg.lora_modules_to_save if cfg.lora_modules_to_save else None)


def load_model(cfg):
    torch.manual_seed(0)
    model = LlamaForCausalLM(dtype=cfg.torch_dtype)
    # make sure these are fp32 per Ramesh et al. (2021)
    for name, module in model.named_modules():
        if "norm" in name:
            module.to(torch.float32)
        if "lm_head" in name or "embed_tokens" in name:
            if hasattr(module, "weight"):
                module.to(torch.float32)
    needs_fa2_dtype = cfg.adapter or cfg.fsdp
    # LlamaRMSNorm layers are in fp32 after kbit_training or full finetune, so we need to
    # convert them back to fp16/bf16 for flash-attn compatibility.
    if needs_fa2_dtype or (cfg.flash_attention and cfg.is_llama_derived_model):
        for name, module in model.named_modules():
            if "norm" in name:
                module.to(cfg.torch_dtype)
            if "lm_head" in name or "embed_tokens" in name:
                if hasattr(module, "weight"):
                    module.to(cfg.torch_dtype)  # root-cause
    return load_lora(model, cfg)


# ---- transformers Trainer (re-typed: fp16 amp with a GradScaler, clipping every update) -----
class Trainer:
    def __init__(self, model, cfg):
        self.model, self.cfg = model, cfg
        self.optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=cfg.learning_rate)
        self.scaler = torch.amp.GradScaler("cpu") if cfg.fp16 else None

    def train(self, batches):
        for step in range(self.cfg.max_steps):
            for micro in range(self.cfg.gradient_accumulation_steps):
                input_ids = batches[(step * self.cfg.gradient_accumulation_steps + micro) % len(batches)]
                with torch.autocast("cpu", dtype=self.cfg.torch_dtype, enabled=self.cfg.fp16 or self.cfg.bf16):
                    loss = self.model(input_ids, labels=input_ids) / self.cfg.gradient_accumulation_steps
                self.scaler.scale(loss).backward()
            self.scaler.unscale_(self.optimizer)  # fails-here
            grad_norm = nn.utils.clip_grad_norm_(self.model.parameters(), self.cfg.max_grad_norm)
            self.scaler.step(self.optimizer)
            self.scaler.update()
            self.optimizer.zero_grad()
            print(f"step {step}: loss {loss.item() * self.cfg.gradient_accumulation_steps:.4f}, grad_norm {grad_norm:.3f}")


cfg = normalize_config(DictDefault(CFG_YAML))
model = load_model(cfg)
trainable = {n: p.dtype for n, p in model.named_parameters() if p.requires_grad}
print("trainable dtypes:", sorted({str(d) for d in trainable.values()}))
g = torch.Generator().manual_seed(0)
batches = [torch.randint(0, 128, (cfg.micro_batch_size, 16), generator=g) for _ in range(4)]
Trainer(model, cfg).train(batches)

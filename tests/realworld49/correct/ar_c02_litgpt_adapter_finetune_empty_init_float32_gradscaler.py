"""Adapter fine-tuning of a small GPT in the style of lit-parrot's finetune_adapter.py (Lightning-AI/litgpt #53 as in ar02) with precision "16-mixed" done the way mixed precision expects: the model is built under EmptyInitOnDevice(..., dtype=torch.float32), so the weights and the trainable adapter parameters stay float32, autocast runs the forward in float16 and the gradient scaler unscales float32 gradients; the pretrained checkpoint is still loaded with map_location and the adapter weights are saved at the end
source: https://github.com/Lightning-AI/litgpt/issues/53
reported-error: (none filed; the fixed situation of ar02)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.utils._device


class EmptyInitOnDevice(torch.overrides.TorchFunctionMode):
    """lit-llama / lit-parrot utils: create tensors with the given device and dtype, skip initialization."""

    def __init__(self, device=None, dtype=None):
        self.device = device
        self.dtype = dtype

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if getattr(func, "__module__", None) == "torch.nn.init":
            if "tensor" in kwargs:
                return kwargs["tensor"]
            else:
                return args[0]
        if self.device is not None and func in torch.utils._device._device_constructors() and kwargs.get("device") is None:
            kwargs["device"] = self.device
        if self.dtype is not None and func in torch.utils._device._device_constructors() and kwargs.get("dtype") is None:
            kwargs["dtype"] = self.dtype
        return func(*args, **kwargs)


# ---- a small Parrot (GPT-NeoX style) with lit-llama's adapter: a learned prompt and a zero-initialised gate
class Config:
    vocab_size = 96
    block_size = 32
    n_layer = 2
    n_head = 4
    n_embd = 64
    adapter_prompt_length = 4
    adapter_start_layer = 1


class CausalSelfAttention(nn.Module):
    def __init__(self, config, block_idx):
        super().__init__()
        self.attn = nn.Linear(config.n_embd, 3 * config.n_embd)
        self.proj = nn.Linear(config.n_embd, config.n_embd)
        self.n_head, self.n_embd = config.n_head, config.n_embd
        self.block_idx = block_idx
        if block_idx >= config.adapter_start_layer:
            self.adapter_wte = nn.Embedding(config.adapter_prompt_length, config.n_embd)
            self.gating_factor = nn.Parameter(torch.zeros(1, config.n_head, 1, 1))

    def forward(self, x, mask):
        B, T, C = x.shape
        q, k, v = self.attn(x).split(self.n_embd, dim=2)
        hs = C // self.n_head
        q, k, v = (t.view(B, T, self.n_head, hs).transpose(1, 2) for t in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        if hasattr(self, "adapter_wte"):
            prefix = self.adapter_wte.weight.reshape(1, -1, C).repeat(B, 1, 1)
            _, ak, av = self.attn(prefix).split(self.n_embd, dim=2)
            ak = ak.view(B, -1, self.n_head, hs).transpose(1, 2)
            av = av.view(B, -1, self.n_head, hs).transpose(1, 2)
            ay = F.scaled_dot_product_attention(q, ak, av)
            y = y + self.gating_factor * ay
        return self.proj(y.transpose(1, 2).contiguous().view(B, T, C))


class Block(nn.Module):
    def __init__(self, config, block_idx):
        super().__init__()
        self.norm_1 = nn.LayerNorm(config.n_embd)
        self.attn = CausalSelfAttention(config, block_idx)
        self.norm_2 = nn.LayerNorm(config.n_embd)
        self.mlp = nn.Sequential(nn.Linear(config.n_embd, 4 * config.n_embd), nn.GELU(), nn.Linear(4 * config.n_embd, config.n_embd))

    def forward(self, x, mask):
        x = x + self.attn(self.norm_1(x), mask)
        return x + self.mlp(self.norm_2(x))


class Parrot(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.wte = nn.Embedding(config.vocab_size, config.n_embd)
        self.h = nn.ModuleList(Block(config, i) for i in range(config.n_layer))
        self.ln_f = nn.LayerNorm(config.n_embd)
        self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)

    def forward(self, idx):
        T = idx.size(1)
        mask = torch.ones(T, T, dtype=torch.bool, device=idx.device).tril()
        x = self.wte(idx)
        for block in self.h:
            x = block(x, mask)
        return self.lm_head(self.ln_f(x))


def mark_only_adapter_as_trainable(model):
    for name, param in model.named_parameters():
        param.requires_grad = "adapter_wte" in name or "gating_factor" in name


def reset_adapter_parameters(model):
    with torch.no_grad():
        for name, param in model.named_parameters():
            if "adapter_wte" in name:
                param.normal_(0.0, 0.02)
            elif "gating_factor" in name:
                param.zero_()


def main():
    torch.manual_seed(1337)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    config = Config()
    out_dir = tempfile.mkdtemp()

    # the "pretrained" checkpoint (lit_model.pth), saved from a float32 model
    pretrained_path = os.path.join(out_dir, "lit_model.pth")
    torch.save(Parrot(config).state_dict(), pretrained_path)

    # precision="16-mixed": autocast to float16 plus a gradient scaler
    scaler = torch.amp.GradScaler(device.type)
    with EmptyInitOnDevice(device=device, dtype=torch.float32):
        model = Parrot(config)
    checkpoint = torch.load(pretrained_path, map_location=device)
    model.load_state_dict(checkpoint, strict=False)
    reset_adapter_parameters(model)
    mark_only_adapter_as_trainable(model)
    trainable = [p for p in model.parameters() if p.requires_grad]
    print(f"trainable parameters: {sum(p.numel() for p in trainable)}, dtype {trainable[0].dtype}")

    optimizer = torch.optim.AdamW(trainable, lr=9e-3, weight_decay=0.02)

    # instruction-tuning data: synthetic token sequences
    data = torch.randint(0, config.vocab_size, (64, config.block_size + 1))
    for iter_num in range(6):
        ix = torch.randint(0, len(data), (8,))
        input_ids = data[ix, :-1].to(device)
        targets = data[ix, 1:].to(device)
        with torch.autocast(device.type, dtype=torch.float16):
            logits = model(input_ids)
            loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)).float(), targets.reshape(-1), ignore_index=-1)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad()
        print(f"iter {iter_num}: loss {loss.item():.4f}")

    adapter_path = os.path.join(out_dir, "lit_model_adapter_finetuned.pth")
    torch.save({k: v for k, v in model.state_dict().items() if "adapter" in k or "gating" in k}, adapter_path)
    print("saved", adapter_path)


if __name__ == "__main__":
    main()

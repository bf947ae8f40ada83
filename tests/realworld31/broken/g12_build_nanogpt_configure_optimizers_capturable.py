"""GPT-2 pretraining loop of karpathy/build-nanogpt (train_gpt2.py: GPTConfig, GPT.configure_optimizers with weight-decay groups and fused AdamW when available): the variant asks for capturable=True so the step can later be captured in a CUDA graph, but the run happens on the CPU and the first optimizer.step() fails
source: https://github.com/karpathy/build-nanogpt/blob/ec39245425b2c82a38c0787f27e5f9d7082c973b/train_gpt2.py
reported-error: (none filed; variant of configure_optimizers passing capturable=True on a CPU-only run: RuntimeError: If capturable=True, params and state_steps must be on supported devices)
outcome: AssertionError: If capturable=True, params and state_steps must be on supported devices: ['cuda', 'xpu', 'hpu', 'privateuseone', 'xla']. at line 70
root-cause: line 54
expect: DG016
"""
import inspect
from dataclasses import dataclass

import torch
import torch.nn as nn
from torch.nn import functional as F


@dataclass
class GPTConfig:
    block_size: int = 16
    vocab_size: int = 64
    n_layer: int = 2
    n_head: int = 2
    n_embd: int = 32


class GPT(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.wte = nn.Embedding(config.vocab_size, config.n_embd)
        self.wpe = nn.Embedding(config.block_size, config.n_embd)
        layer = nn.TransformerEncoderLayer(config.n_embd, config.n_head, 4 * config.n_embd, batch_first=True, norm_first=True)
        self.h = nn.TransformerEncoder(layer, config.n_layer)
        self.ln_f = nn.LayerNorm(config.n_embd)
        self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)
        self.wte.weight = self.lm_head.weight

    def forward(self, idx, targets=None):
        B, T = idx.size()
        pos = torch.arange(0, T, dtype=torch.long, device=idx.device)
        mask = torch.triu(torch.ones(T, T, dtype=torch.bool, device=idx.device), 1)
        x = self.h(self.wte(idx) + self.wpe(pos), mask=mask)
        logits = self.lm_head(self.ln_f(x))
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1)) if targets is not None else None
        return logits, loss

    def configure_optimizers(self, weight_decay, learning_rate, device_type):
        param_dict = {pn: p for pn, p in self.named_parameters() if p.requires_grad}
        decay_params = [p for n, p in param_dict.items() if p.dim() >= 2]
        nodecay_params = [p for n, p in param_dict.items() if p.dim() < 2]
        optim_groups = [{"params": decay_params, "weight_decay": weight_decay}, {"params": nodecay_params, "weight_decay": 0.0}]
        fused_available = "fused" in inspect.signature(torch.optim.AdamW).parameters
        use_fused = fused_available and device_type == "cuda"
        print(f"using fused AdamW: {use_fused}")
        optimizer = torch.optim.AdamW(optim_groups, lr=learning_rate, betas=(0.9, 0.95), eps=1e-8, fused=use_fused, capturable=True)  # root-cause
        return optimizer


device = "cuda" if torch.cuda.is_available() else "cpu"
device_type = "cuda" if device.startswith("cuda") else "cpu"
torch.manual_seed(1337)
model = GPT(GPTConfig()).to(device)
optimizer = model.configure_optimizers(weight_decay=0.1, learning_rate=6e-4, device_type=device_type)
data = torch.randint(0, 64, (4 * 16 + 1,))
for step in range(3):
    x, y = data[:-1].view(4, 16).to(device), data[1:].view(4, 16).to(device)
    optimizer.zero_grad()
    logits, loss = model(x, y)
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()  # fails-here
    print(f"step {step} | loss: {loss.item():.6f} | norm: {norm:.4f}")

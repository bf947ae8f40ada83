"""Memory-saving fine-tune that keeps the loaded backbone in float16 but frozen (requires_grad False, run under torch.no_grad), and trains only a float32 head with GradScaler; unscale_ sees only float32 gradients
source: https://openillumi.com/en/en-quantization-amp-error-fix-peft-lora
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn


class FrozenHalfBackbone(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim)).half()
        for p in self.net.parameters():
            p.requires_grad_(False)

    def forward(self, x):
        with torch.no_grad():
            return self.net(x.half()).float()


backbone, head = FrozenHalfBackbone(), nn.Linear(32, 4)
opt = torch.optim.AdamW([p for p in head.parameters() if p.requires_grad], lr=1e-3)
scaler = torch.amp.GradScaler("cpu")
for it in range(3):
    x, y = torch.randn(16, 32), torch.randint(0, 4, (16,))
    with torch.autocast("cpu", dtype=torch.bfloat16):
        logits = head(backbone(x))
    loss = nn.functional.cross_entropy(logits.float(), y)
    opt.zero_grad()
    scaler.scale(loss).backward()
    scaler.unscale_(opt)
    nn.utils.clip_grad_norm_(head.parameters(), 1.0)
    scaler.step(opt)
    scaler.update()
    print("loss", loss.item())

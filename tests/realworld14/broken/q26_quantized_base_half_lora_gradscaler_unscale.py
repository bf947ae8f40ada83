"""Memory-saving fine-tune: the QuantizedBackbone loader returns the backbone with .half() ("simulating" a 4-bit/fp16 compute dtype), a trainable task head is added, and the AMP recipe with GradScaler unscales before clipping; the backbone's float16 gradients make unscale_ fail
source: https://openillumi.com/en/en-quantization-amp-error-fix-peft-lora
reported-error: ValueError: Attempting to unscale FP16 gradients.
outcome: ValueError: Attempting to unscale FP16 gradients. at line 41
root-cause: line 16
expect: DG014
"""
import torch
import torch.nn as nn


class QuantizedBackbone:
    @staticmethod
    def load(dim=32, compute_dtype=torch.float16):
        backbone = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim))
        return backbone.to(compute_dtype)  # root-cause


class Classifier(nn.Module):
    def __init__(self, backbone, dim=32, n_classes=4):
        super().__init__()
        self.backbone = backbone
        self.head = nn.Linear(dim, n_classes)

    def forward(self, x):
        h = self.backbone(x.to(next(self.backbone.parameters()).dtype))
        return self.head(h.float())


class AmpTrainer:
    def __init__(self, model, lr=1e-3, max_norm=1.0):
        self.model, self.max_norm = model, max_norm
        self.opt = torch.optim.AdamW(model.parameters(), lr=lr)
        self.scaler = torch.amp.GradScaler("cpu")

    def step(self, x, y):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            loss = nn.functional.cross_entropy(self.model(x).float(), y)
        self.opt.zero_grad()
        self.scaler.scale(loss).backward()
        self.scaler.unscale_(self.opt)  # fails-here
        nn.utils.clip_grad_norm_(self.model.parameters(), self.max_norm)
        self.scaler.step(self.opt)
        self.scaler.update()
        return loss.item()


trainer = AmpTrainer(Classifier(QuantizedBackbone.load()))
for it in range(3):
    print("loss", trainer.step(torch.randn(16, 32), torch.randint(0, 4, (16,))))

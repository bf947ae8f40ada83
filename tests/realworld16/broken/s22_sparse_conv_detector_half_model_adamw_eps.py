"""Point-cloud detector head trained "in FP16 to fit the batch": the Trainer converts the model with .half() in its constructor and uses AdamW with the default eps, so the second-moment denominator underflows and the weights go NaN silently
source: https://github.com/traveller59/spconv/issues/513
reported-error: none raised (tensors in the model went to NAN; fixed by raising the eps of BatchNorm and Adam/AdamW)
outcome: ok (silent: after the AdamW steps at line 31 the float16 parameters become non-finite, printed as "step N: loss nan, non-finite params K" with K above 0)
root-cause: line 23
expect: DG012
"""
import torch
import torch.nn as nn


class VoxelHead(nn.Module):
    def __init__(self, c_in=16, c_mid=64, n_out=7):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(c_in, c_mid), nn.ReLU(), nn.Linear(c_mid, c_mid), nn.ReLU(), nn.Linear(c_mid, n_out))

    def forward(self, feats):
        return self.mlp(feats)


class Trainer:
    def __init__(self, model, lr=1e-3, weight_decay=1e-2):
        self.model = model.half()  # root-cause
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=lr, weight_decay=weight_decay)

    def step(self, feats, boxes):
        pred = self.model(feats.half())
        loss = nn.functional.smooth_l1_loss(pred, boxes.half())
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()  # fails-here
        return loss


torch.manual_seed(0)
trainer = Trainer(VoxelHead())
feats = torch.randn(128, 16)
boxes = torch.randn(128, 7) * 1e-2
for step in range(6):
    loss = trainer.step(feats, boxes)
    bad = sum(int((~torch.isfinite(p)).sum()) for p in trainer.model.parameters())
    print(f"step {step}: loss {loss.item():.4f}, non-finite params {bad}")

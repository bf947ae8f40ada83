"""Cooperative-perception domain adaptation after the fix: the float32 detector and discriminator (fp32 master weights) run their forward under torch.autocast (bfloat16 on CPU), and the detector features are converted with .float() before the domain-adaptation module that runs after the block
source: https://github.com/ucla-mobility/V2V4Real/pull/30
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn


class PointPillarLite(nn.Module):
    def __init__(self, c_in=4, c_feat=16):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(c_in, c_feat, 3, padding=1), nn.ReLU(), nn.Conv2d(c_feat, c_feat, 3, padding=1))
        self.cls_head = nn.Conv2d(c_feat, 2, 1)

    def forward(self, batch):
        feats = self.backbone(batch["bev"])
        return {"feature": feats, "cls": self.cls_head(feats)}


class DAModule(nn.Module):
    def __init__(self, c_feat=16):
        super().__init__()
        self.discriminator = nn.Sequential(nn.Linear(c_feat, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, output_dict, domain):
        logit = self.discriminator(output_dict["feature"].mean(dim=(2, 3)))
        return nn.functional.binary_cross_entropy_with_logits(logit.squeeze(1), domain)


model, DA_module = PointPillarLite(), DAModule()
optimizer = torch.optim.Adam(list(model.parameters()) + list(DA_module.parameters()), lr=1e-3)
for step in range(2):
    domain = torch.tensor([0.0, 0.0, 1.0, 1.0])
    with torch.autocast("cpu", dtype=torch.bfloat16):
        ouput_dict = model({"bev": torch.rand(4, 4, 16, 16)})
        det_loss = ouput_dict["cls"].float().pow(2).mean()
    ouput_dict = {k: v.float() for k, v in ouput_dict.items()}
    loss = det_loss + DA_module(ouput_dict, domain)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f} ({loss.dtype}), weights {next(model.parameters()).dtype}")

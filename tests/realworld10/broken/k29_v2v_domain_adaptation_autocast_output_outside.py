"""Cooperative-perception domain adaptation: the detector's forward runs under torch.autocast (bfloat16 here on CPU), but the domain-adaptation module that consumes its feature dict runs after the with-block in float32, so the low-precision features hit the float32 discriminator
source: https://github.com/ucla-mobility/V2V4Real/pull/30
reported-error: with torch.cuda.amp.autocast(): ouput_dict = model(total_batch_data) gives float16 outputs; da_loss = DA_module(ouput_dict) outside autocast is float32, which results in a data type mismatch
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got BFloat16 and Float at line 40
root-cause: line 51
expect: DG017
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


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, g):
        return -g


class DAModule(nn.Module):
    def __init__(self, c_feat=16):
        super().__init__()
        self.discriminator = nn.Sequential(nn.Flatten(), nn.LazyLinear(32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, output_dict, domain):
        feat = GradReverse.apply(output_dict["feature"].mean(dim=(2, 3)))
        logit = self.discriminator(feat)  # fails-here
        return nn.functional.binary_cross_entropy_with_logits(logit.squeeze(1), domain)


model, DA_module = PointPillarLite(), DAModule()
DA_module(model({"bev": torch.rand(1, 4, 8, 8)}), torch.zeros(1))
optimizer = torch.optim.Adam(list(model.parameters()) + list(DA_module.parameters()), lr=1e-3)
for step in range(2):
    total_batch_data = {"bev": torch.rand(4, 4, 16, 16)}
    domain = torch.tensor([0.0, 0.0, 1.0, 1.0])
    with torch.autocast("cpu", dtype=torch.bfloat16):
        ouput_dict = model(total_batch_data)  # root-cause
        det_loss = ouput_dict["cls"].float().pow(2).mean()
    da_loss = DA_module(ouput_dict, domain)
    loss = det_loss + da_loss
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f}")

"""Feature-distillation trainer that applies the float32 align_module inside the student's fp16 autocast block (so autocast casts its weight), converts the float16 teacher's features and logits with .float(), and computes the losses outside autocast under GradScaler
source: https://github.com/open-mmlab/mmrazor/issues/190
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def make_net(width, n_classes=10):
    return nn.ModuleDict({"neck": nn.Sequential(nn.Conv2d(3, width, 3, stride=2, padding=1), nn.ReLU(),
                                                nn.AdaptiveAvgPool2d(1), nn.Flatten()),
                          "head": nn.Linear(width, n_classes)})


if __name__ == "__main__":
    torch.manual_seed(0)
    teacher = make_net(64).half().eval().requires_grad_(False)
    student, align_module = make_net(16), nn.Linear(16, 64)
    opt = torch.optim.SGD(list(student.parameters()) + list(align_module.parameters()), lr=0.05, momentum=0.9)
    scaler = torch.amp.GradScaler("cpu")
    for it in range(3):
        x, y = torch.rand(8, 3, 32, 32), torch.randint(0, 10, (8,))
        with torch.no_grad():
            t_feat = teacher["neck"](x.half())
            t_logits = teacher["head"](t_feat).float()
            t_feat = t_feat.float()
        with torch.autocast("cpu", dtype=torch.float16):
            s_feat = student["neck"](x)
            s_logits = student["head"](s_feat)
            aligned = align_module(s_feat)
        loss = F.mse_loss(aligned.float(), t_feat) + F.kl_div(F.log_softmax(s_logits.float() / 4, -1),
                                                               F.softmax(t_logits / 4, -1), reduction="batchmean") * 16
        loss = loss + F.cross_entropy(s_logits.float(), y)
        opt.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        print(f"iter {it}: loss {loss.item():.4f}")

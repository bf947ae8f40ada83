"""Linear-probe job that returns autocast features with .float() before the float32 probe head trained outside the block, and whose resume helper restores lr/betas but sets capturable only when the parameters live on CUDA
source: https://github.com/pytorch/pytorch/issues/42358
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn

SAVED_GROUPS = [{"lr": 0.1, "betas": (0.9, 0.99), "capturable": True}]


@torch.no_grad()
def extract_features(backbone, images):
    with torch.autocast("cpu", dtype=torch.bfloat16):
        feats = backbone(images)
    return feats.float()


def restore_param_groups(optimizer, saved_groups, device):
    for group, saved in zip(optimizer.param_groups, saved_groups):
        group["lr"], group["betas"] = saved["lr"], saved["betas"]
        group["capturable"] = saved["capturable"] and device.type == "cuda"


if __name__ == "__main__":
    torch.manual_seed(0)
    device = torch.device("cpu")
    backbone = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten()).eval()
    images, labels = torch.rand(32, 3, 16, 16), torch.randint(0, 10, (32,))
    feats = extract_features(backbone, images)
    probe = nn.Linear(16, 10)
    opt = torch.optim.Adam(probe.parameters(), lr=1e-2)
    restore_param_groups(opt, SAVED_GROUPS, device)
    for _ in range(5):
        loss = nn.functional.cross_entropy(probe(feats), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"probe loss {loss.item():.4f} feats {feats.dtype}")

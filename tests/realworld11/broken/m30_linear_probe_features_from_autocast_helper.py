"""Linear-probe evaluation: extract_features() runs the frozen backbone under torch.autocast(bfloat16) and returns the pooled features as they come out; the float32 probe head trained afterwards, outside any autocast region, receives bfloat16 features
source: https://github.com/pytorch/pytorch/issues/42358
reported-error: RuntimeError: expected scalar type Float but found Half (in the replaced float32 fc layer when mixing AMP-produced activations with a float32 Linear)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got BFloat16 and Float at line 36
root-cause: line 28
expect: DG017
"""
import torch
import torch.nn as nn


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 16, 3, stride=2, padding=1)
        self.stage = nn.Sequential(nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU())
        self.pool = nn.AdaptiveAvgPool2d(1)

    def forward(self, x):
        return self.pool(self.stage(torch.relu(self.stem(x)))).flatten(1)


@torch.no_grad()
def extract_features(backbone, images, bs=8):
    feats = []
    with torch.autocast("cpu", dtype=torch.bfloat16):
        for s in range(0, len(images), bs):
            feats.append(backbone(images[s:s + bs]))  # root-cause
    return torch.cat(feats)


def train_probe(feats, labels, n_classes=10, epochs=5):
    probe = nn.Linear(feats.size(1), n_classes)
    opt = torch.optim.SGD(probe.parameters(), lr=0.1)
    for _ in range(epochs):
        loss = nn.functional.cross_entropy(probe(feats), labels)  # fails-here
        opt.zero_grad()
        loss.backward()
        opt.step()
    return probe, loss.item()


def accuracy(probe, feats, labels):
    with torch.no_grad():
        return (probe(feats).argmax(1) == labels).float().mean().item()


if __name__ == "__main__":
    torch.manual_seed(0)
    backbone = Backbone().eval()
    images, labels = torch.rand(32, 3, 16, 16), torch.randint(0, 10, (32,))
    feats = extract_features(backbone, images)
    probe, loss = train_probe(feats, labels)
    print(f"probe loss {loss:.4f} acc {accuracy(probe, feats, labels):.2f}")

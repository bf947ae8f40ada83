"""Face-recognition training with a margin-based classification head whose class-center matrix is allocated as a float16 nn.Parameter "to fit 10k identities"; the forward upcasts it with .float(), so its gradient is float16, and GradScaler.step refuses to unscale it (the rest of the model is float32)
source: https://github.com/facebookresearch/fairscale/issues/834
reported-error: ValueError: Attempting to unscale FP16 gradients. (sharded grad scaler step with a model holding some float16 parameters)
outcome: ValueError: Attempting to unscale FP16 gradients. at line 56
root-cause: line 16
expect: DG014
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MarginHead(nn.Module):
    def __init__(self, emb, n_ids, margin=0.4, scale=32.0):
        super().__init__()
        self.kernel = nn.Parameter(torch.randn(n_ids, emb, dtype=torch.float16) * 0.01)  # root-cause
        self.margin, self.scale = margin, scale

    def forward(self, emb, labels):
        cos = F.linear(F.normalize(emb), F.normalize(self.kernel.float()))
        onehot = F.one_hot(labels, cos.size(1)).to(cos.dtype)
        return self.scale * (cos - self.margin * onehot)


class Backbone(nn.Module):
    def __init__(self, emb=32):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.PReLU(8), nn.AdaptiveAvgPool2d(2), nn.Flatten())
        self.fc = nn.Linear(32, emb)

    def forward(self, x):
        return self.fc(self.features(x))


class FaceModel(nn.Module):
    def __init__(self, n_ids=100):
        super().__init__()
        self.backbone = Backbone()
        self.head = MarginHead(32, n_ids)

    def forward(self, x, labels):
        return F.cross_entropy(self.head(self.backbone(x), labels), labels)


def train(steps=2):
    device_type = "cuda" if torch.cuda.is_available() else "cpu"
    model = FaceModel().to(device_type)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    scaler = torch.amp.GradScaler(device_type)
    for step in range(steps):
        x = torch.rand(8, 3, 16, 16, device=device_type)
        labels = torch.randint(0, 100, (8,), device=device_type)
        loss = model(x, labels)
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(optimizer)  # fails-here
        scaler.update()
        print(f"step {step}: loss {loss.item():.4f}")


if __name__ == "__main__":
    train()

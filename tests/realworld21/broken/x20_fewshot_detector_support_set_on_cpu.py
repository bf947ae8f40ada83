"""Few-shot object detector with a meta-learner (DCNet-style): the trainer moves the detector to the configured device, but the support images used to build the class reweighting vectors are stacked on the CPU in the support loader and passed to meta_forward() as they are, so on a GPU the meta-conv gets a CPU input with CUDA weights
source: https://github.com/hzhupku/DCNet/issues/10
reported-error: RuntimeError: Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same (during training, trainer.py)
outcome: cuda-only: RuntimeError: Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same (support images stay on the CPU while the meta-learner is on cuda; wording varies with the torch version; not run on a GPU for this set) at line 24; on CPU: ok
root-cause: line 40
expect: DG009
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- fsdet/modeling/meta_detector.py
class MetaDetector(nn.Module):
    def __init__(self, n_classes=3, dim=16):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, dim, 3, 2, 1), nn.ReLU(), nn.Conv2d(dim, dim, 3, 2, 1), nn.ReLU())
        self.meta_conv = nn.Sequential(nn.Conv2d(4, dim, 3, 2, 1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.cls_head = nn.Conv2d(dim, 1, 1)
        self.n_classes = n_classes

    def meta_forward(self, support_imgs, support_masks):
        x = torch.cat([support_imgs, support_masks], dim=1)
        return self.meta_conv(x).flatten(1)  # fails-here

    def forward(self, images, class_vectors):
        feats = self.backbone(images)
        logits = [self.cls_head(feats * w.view(1, -1, 1, 1)) for w in class_vectors]
        return torch.cat(logits, dim=1)


# ---- fsdet/data/support_loader.py
class SupportLoader:
    def __init__(self, n_classes=3, shots=2, size=32, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.imgs = torch.rand(n_classes, shots, 3, size, size, generator=g)
        self.masks = (torch.rand(n_classes, shots, 1, size, size, generator=g) > 0.5).float()

    def batch(self):
        return self.imgs.flatten(0, 1), self.masks.flatten(0, 1)  # root-cause


# ---- fsdet/engine/trainer.py
class Trainer:
    def __init__(self, device):
        self.device = torch.device(device)
        self.model = MetaDetector().to(self.device)
        self.support = SupportLoader()
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.01, momentum=0.9)

    def run_step(self, images, targets):
        imgs, masks = self.support.batch()
        vectors = self.model.meta_forward(imgs, masks).view(self.model.n_classes, -1, 16).mean(1)
        logits = self.model(images.to(self.device), vectors)
        loss = F.binary_cross_entropy_with_logits(logits, targets.to(self.device))
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = Trainer("cuda" if torch.cuda.is_available() else "cpu")
    for it in range(3):
        images = torch.rand(4, 3, 64, 64)
        targets = (torch.rand(4, 3, 16, 16) > 0.8).float()
        print(f"iter {it}: loss {trainer.run_step(images, targets):.4f}")

"""Skeleton-based action recognition (mmaction2-style recognizer with a cls head config): the CrossEntropyLoss wrapper turns the configured class_weight list into a tensor once, in __init__, on the CPU, and passes it as weight= to F.cross_entropy; the recognizer is moved to the GPU when one exists, so on a CUDA machine the weight stays behind
source: https://github.com/open-mmlab/mmaction2/issues/1456
reported-error: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (when specifying class_weight in the cls_head loss config; tools/train.py -> recognizer3d.forward_train -> loss_cls)
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but got weight is on cpu, different from other tensors on cuda:0 (when checking argument in method wrapper_CUDA_nll_loss_forward) (the class_weight tensor stays on the CPU; wording varies with the torch version; not run on a GPU for this set) at line 29; on CPU: ok
root-cause: line 26
expect: DG009
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

cfg = dict(
    num_classes=4,
    loss_cls=dict(type="CrossEntropyLoss", loss_weight=1.0, class_weight=[1.0, 2.0, 2.0, 0.5]),
    optimizer=dict(lr=0.01, momentum=0.9),
)


# ---- mmaction/models/losses/cross_entropy_loss.py
class CrossEntropyLoss(nn.Module):
    def __init__(self, loss_weight=1.0, class_weight=None):
        super().__init__()
        self.loss_weight = loss_weight
        self.class_weight = None
        if class_weight is not None:
            self.class_weight = torch.Tensor(class_weight)  # root-cause

    def forward(self, cls_score, label):
        return self.loss_weight * F.cross_entropy(cls_score, label, weight=self.class_weight)  # fails-here


# ---- mmaction/models/heads + recognizers
class STGCNLite(nn.Module):
    def __init__(self, num_joints=17, num_classes=4):
        super().__init__()
        self.temporal = nn.Conv1d(num_joints * 3, 64, 5, padding=2)
        self.fc_cls = nn.Linear(64, num_classes)

    def forward(self, keypoints):
        b, t, j, c = keypoints.shape
        x = self.temporal(keypoints.reshape(b, t, j * c).transpose(1, 2)).relu()
        return self.fc_cls(x.mean(-1))


class Recognizer(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.backbone = STGCNLite(num_classes=cfg["num_classes"])
        loss_cfg = {k: v for k, v in cfg["loss_cls"].items() if k != "type"}
        self.loss_cls = CrossEntropyLoss(**loss_cfg)

    def forward_train(self, keypoints, label):
        return {"loss_cls": self.loss_cls(self.backbone(keypoints), label)}


# ---- tools/train.py
def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    model = Recognizer(cfg).to(device)
    optimizer = torch.optim.SGD(model.parameters(), **cfg["optimizer"])
    for it in range(10):
        keypoints = torch.randn(8, 30, 17, 3, device=device)
        label = torch.randint(0, cfg["num_classes"], (8,), device=device)
        losses = model.forward_train(keypoints, label)
        optimizer.zero_grad()
        losses["loss_cls"].backward()
        optimizer.step()
    print(f"iter {it} loss_cls {losses['loss_cls'].item():.4f}")


if __name__ == "__main__":
    main()

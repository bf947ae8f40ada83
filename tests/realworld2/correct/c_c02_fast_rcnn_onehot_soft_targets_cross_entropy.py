"""Class-aware teacher ROI head: one-hot float class targets go straight into cross_entropy (valid class probabilities in torch >= 1.10)
source: https://github.com/mecarill/classawareteacher/issues/3
reported-error: Expected object of scalar type Long but got scalar type Float for argument #2 'target'
outcome: ok
root-cause: none
expect: none
"""
import torch
import torch.nn as nn
from torch.nn import functional as F


def cross_entropy(input, target, *, reduction="mean", **kwargs):
    """detectron2.layers.wrappers.cross_entropy: returns 0 for empty inputs."""
    if target.numel() == 0 and reduction == "mean":
        return input.sum() * 0.0
    return F.cross_entropy(input, target, reduction=reduction, **kwargs)


class FastRCNNOutputLayers(nn.Module):
    def __init__(self, input_size=64, num_classes=8, box_dim=4, loss_weight=None):
        super().__init__()
        self.num_classes = num_classes
        self.cls_score = nn.Linear(input_size, num_classes + 1)
        self.bbox_pred = nn.Linear(input_size, num_classes * box_dim)
        self.loss_weight = loss_weight or {"loss_cls": 1.0, "loss_box_reg": 1.0}

    def forward(self, x):
        return self.cls_score(x), self.bbox_pred(x)

    def box_reg_loss(self, proposal_deltas, gt_deltas, gt_classes, box_losses_w):
        fg = (gt_classes >= 0) & (gt_classes < self.num_classes)
        if fg.sum() == 0:
            return proposal_deltas.sum() * 0.0
        deltas = proposal_deltas.view(len(gt_classes), self.num_classes, 4)[fg, gt_classes[fg]]
        return (F.smooth_l1_loss(deltas, gt_deltas[fg], reduction="none").sum(-1) * box_losses_w[fg]).sum() / len(gt_classes)

    def losses(self, predictions, gt_classes, gt_oht_classes, w, gt_deltas, box_losses_w):
        scores, proposal_deltas = predictions
        losses = {
            # gt_oht_classes: float (R, K+1) one-hot rows, i.e. class probabilities
            "loss_cls": torch.mean(cross_entropy(scores, gt_oht_classes, reduction="none") * w),
            "loss_box_reg": self.box_reg_loss(proposal_deltas, gt_deltas, gt_classes, box_losses_w),
        }
        return {k: v * self.loss_weight.get(k, 1.0) for k, v in losses.items()}


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    head = FastRCNNOutputLayers().to(device)
    optimizer = torch.optim.SGD(head.parameters(), lr=0.02, momentum=0.9)
    for it in range(5):
        feats = torch.randn(32, 64, device=device)
        gt_classes = torch.randint(0, head.num_classes + 1, (32,), device=device)
        gt_oht_classes = F.one_hot(gt_classes, head.num_classes + 1).float()
        w = torch.rand(32, device=device)
        gt_deltas = torch.randn(32, 4, device=device)
        loss_dict = head.losses(head(feats), gt_classes, gt_oht_classes, w, gt_deltas, torch.ones(32, device=device))
        loss = sum(loss_dict.values())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(it, {k: round(v.item(), 4) for k, v in loss_dict.items()})


if __name__ == "__main__":
    main()

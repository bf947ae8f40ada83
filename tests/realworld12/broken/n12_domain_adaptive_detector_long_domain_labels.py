"""Domain-adaptive detector head (DA-Faster-RCNN style) whose domain_labels() helper builds the source/target domain labels with torch.full(..., 1) and torch.zeros(..., dtype=torch.long) after the .float() conversion was removed; F.binary_cross_entropy_with_logits cannot write its float result into the integer target type
source: https://github.com/krumo/Domain-Adaptive-Faster-RCNN-PyTorch/issues/11
reported-error: question why the domain labels are converted to float before F.binary_cross_entropy_with_logits (answer: it raises otherwise)
outcome: RuntimeError: result type Float can't be cast to the desired output type Long at line 45
root-cause: line 36
expect: DG007
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Function


class GradReverse(Function):
    @staticmethod
    def forward(ctx, x, alpha):
        ctx.alpha = alpha
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        return -ctx.alpha * grad, None


class ImageDomainHead(nn.Module):
    def __init__(self, c=16):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(c, 8, 1), nn.ReLU(), nn.Conv2d(8, 1, 1))

    def forward(self, feat, alpha=0.1):
        return self.conv(GradReverse.apply(feat, alpha))


def domain_labels(logits, is_source):
    if is_source:
        return torch.full(logits.shape, 1)  # root-cause
    return torch.zeros(logits.shape, dtype=torch.long)


def da_loss(head, src_feat, tgt_feat):
    losses = []
    for feat, is_source in ((src_feat, True), (tgt_feat, False)):
        logits = head(feat)
        labels = domain_labels(logits, is_source)
        losses.append(F.binary_cross_entropy_with_logits(logits, labels))  # fails-here
    return sum(losses)


if __name__ == "__main__":
    torch.manual_seed(0)
    backbone = nn.Conv2d(3, 16, 3, padding=1)
    head = ImageDomainHead()
    opt = torch.optim.SGD(list(backbone.parameters()) + list(head.parameters()), lr=1e-2, momentum=0.9)
    for it in range(3):
        src, tgt = torch.rand(2, 3, 32, 32), torch.rand(2, 3, 32, 32)
        loss = da_loss(head, backbone(src), backbone(tgt))
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"iter {it}: domain loss {loss.item():.4f}")

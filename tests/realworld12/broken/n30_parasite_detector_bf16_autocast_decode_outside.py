"""YOLO-style single-class detector trained with bfloat16 CPU autocast; train_step() runs the backbone and head under autocast and hands the raw grid predictions to decode_boxes(), which multiplies them with a float32 anchor-projection matrix after the block has ended
source: https://github.com/czbiohub-sf/yogo/pull/135
reported-error: none quoted (PR "bfloat16 autocast" moving training to bf16 autocast)
outcome: RuntimeError: expected m1 and m2 to have the same dtype, but got: c10::BFloat16 != float at line 35
root-cause: line 40
expect: DG017
"""
import torch
import torch.nn as nn

GRID, ANCHORS = 4, 2


class YOGO(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(1, 16, 3, stride=2, padding=1), nn.LeakyReLU(0.1),
                                      nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.LeakyReLU(0.1))
        self.head = nn.Conv2d(32, ANCHORS * 5, 1)

    def forward(self, x):
        out = self.head(self.backbone(x))
        return out.permute(0, 2, 3, 1).reshape(x.size(0), GRID * GRID, ANCHORS * 5)


def anchor_projection():
    proj = torch.zeros(ANCHORS * 5, 4)
    for a in range(ANCHORS):
        for k in range(4):
            proj[a * 5 + k, k] = 1.0 / ANCHORS
    return proj


def decode_boxes(raw, proj):
    return torch.sigmoid(raw.flatten(0, 1) @ proj)  # fails-here


def train_step(model, opt, images, targets, proj):
    with torch.autocast("cpu", dtype=torch.bfloat16):
        raw = model(images)  # root-cause
    boxes = decode_boxes(raw, proj)
    objectness = raw[..., 4::5].float().mean(-1)
    loss = nn.functional.l1_loss(boxes, targets.flatten(0, 1)) + nn.functional.binary_cross_entropy_with_logits(
        objectness, (targets[..., 2] > 0.3).float())
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    model, proj = YOGO(), anchor_projection()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(3):
        images = torch.rand(4, 1, 16, 16)
        targets = torch.rand(4, GRID * GRID, 4)
        print(f"step {step}: loss {train_step(model, opt, images, targets, proj):.4f}")

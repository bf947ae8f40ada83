"""Video-plus-label network (branches in an nn.ModuleDict): the test batch's labels are drawn with torch.randint (int64) and passed to forward, where label_block (a Linear) receives the integer labels directly; the error names Long/Float, which the reporter read as reversed
source: https://github.com/pytorch/pytorch/issues/118280
reported-error: RuntimeError: expected scalar type Long but found Float (raised in label_x = self.label_block(labels))
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Long and Float at line 23
root-cause: line 29
expect: DG005
"""
import torch
import torch.nn as nn


class VestibularNetwork(nn.Module):
    def __init__(self, frames=8, size=16, n_label_feats=4, n_classes=3):
        super().__init__()
        self.blocks = nn.ModuleDict({
            "video": nn.Sequential(nn.Conv3d(3, 4, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool3d(1), nn.Flatten()),
            "label": nn.Sequential(nn.Linear(n_label_feats, 8), nn.ReLU()),
            "head": nn.Linear(4 + 8, n_classes),
        })

    def forward(self, video_frames, labels):
        video_x = self.blocks["video"](video_frames)
        label_x = self.blocks["label"](labels)  # fails-here
        return self.blocks["head"](torch.cat((video_x, label_x), dim=1))


def make_batch(batch_size=4, frames=8, size=16):
    random_video_frames = torch.rand(batch_size, 3, frames, size, size)
    random_labels = torch.randint(0, 5, (batch_size, 4))  # root-cause
    return random_video_frames, random_labels


model = VestibularNetwork()
model.eval()
random_video_frames, random_labels = make_batch()
with torch.inference_mode():
    pred = model(random_video_frames, random_labels)
print(pred.argmax(1))

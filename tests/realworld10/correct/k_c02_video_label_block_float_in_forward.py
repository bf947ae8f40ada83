"""Video-plus-label network whose test labels are still drawn with torch.randint (int64), but forward converts them with labels.float() before the label_block Linear
source: https://github.com/pytorch/pytorch/issues/118280
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn


class VestibularNetwork(nn.Module):
    def __init__(self, n_label_feats=4, n_classes=3):
        super().__init__()
        self.blocks = nn.ModuleDict({
            "video": nn.Sequential(nn.Conv3d(3, 4, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool3d(1), nn.Flatten()),
            "label": nn.Sequential(nn.Linear(n_label_feats, 8), nn.ReLU()),
            "head": nn.Linear(4 + 8, n_classes),
        })

    def forward(self, video_frames, labels):
        video_x = self.blocks["video"](video_frames)
        label_x = self.blocks["label"](labels.float())
        return self.blocks["head"](torch.cat((video_x, label_x), dim=1))


model = VestibularNetwork().eval()
random_video_frames = torch.rand(4, 3, 8, 16, 16)
random_labels = torch.randint(0, 5, (4, 4))
with torch.inference_mode():
    pred = model(random_video_frames, random_labels)
print(pred.argmax(1))

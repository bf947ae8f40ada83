"""simple-faster-rcnn's RoI head converts its inputs with the project's own helper, which moves them to CUDA

source: https://github.com/chenyuntc/simple-faster-rcnn-pytorch/blob/master/model/faster_rcnn_vgg16.py#L112
(`roi_indices = at.totensor(roi_indices).float()`; `utils/array_tool.totensor` ends with `.cuda()`)
false-alarm: DG009 at trainer.py:119 (and its call sites in train.py and misc/train_fast.py, scan 38): the finding
said the CPU `t.zeros(len(sample_roi))` meets the CUDA head. The forward rebinds it through the helper first. This
reduction runs on the CPU (exit 0: the helper's move is off here).
"""
import torch
import torch.nn as nn


def totensor(data, cuda=False):
    tensor = data.detach()
    if cuda:
        tensor = tensor.cuda()
    return tensor


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(5, 2)

    def forward(self, rois, roi_indices):
        roi_indices = totensor(roi_indices).float()
        rois = totensor(rois).float()
        return self.fc(torch.cat([roi_indices[:, None], rois], dim=1))


head = Head().to("cuda" if torch.cuda.is_available() else "cpu")
out = head(torch.rand(3, 4), torch.zeros(3))

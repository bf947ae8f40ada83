"""MaskTrack R-CNN style video-instance training: the annotation-loading pipeline stores gt_labels as int32 and the bbox head's cross-entropy receives them unchanged
source: https://github.com/open-mmlab/mmtracking/issues/446
reported-error: RuntimeError: Expected object of scalar type Long but got scalar type Int for argument #2 'target' in call to _thnn_nll_loss_forward
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 68
root-cause: line 25
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def to_tensor(data):
    if isinstance(data, np.ndarray):
        return torch.from_numpy(data)
    return torch.tensor(data)


class SeqLoadAnnotations:
    def __call__(self, results):
        for r in results:
            anns = r["ann_info"]
            r["gt_bboxes"] = np.array([a["bbox"] for a in anns], dtype=np.float32)
            r["gt_labels"] = np.array([a["category_id"] - 1 for a in anns], dtype=np.int32)  # root-cause
            r["gt_instance_ids"] = np.array([a["instance_id"] for a in anns], dtype=np.int64)
        return results


class SeqDefaultFormatBundle:
    def __call__(self, results):
        for r in results:
            r["img"] = to_tensor(np.ascontiguousarray(r["img"].transpose(2, 0, 1)))
            for key in ("gt_bboxes", "gt_labels", "gt_instance_ids"):
                r[key] = to_tensor(r[key])
        return results


class YouTubeVISDataset(torch.utils.data.Dataset):
    def __init__(self, n_frames=4, num_classes=40):
        rng = np.random.default_rng(0)
        self.frames = []
        for i in range(n_frames):
            anns = [{"bbox": list(rng.random(4) * 32), "category_id": int(rng.integers(1, num_classes + 1)), "instance_id": k} for k in range(3)]
            self.frames.append({"img": rng.random((32, 32, 3), dtype=np.float32), "ann_info": anns})
        self.pipeline = [SeqLoadAnnotations(), SeqDefaultFormatBundle()]

    def __len__(self):
        return len(self.frames) - 1

    def __getitem__(self, idx):
        results = [dict(self.frames[idx]), dict(self.frames[idx + 1])]
        for t in self.pipeline:
            results = t(results)
        return results


class Shared2FCBBoxHead(nn.Module):
    def __init__(self, in_channels=3 * 7 * 7, num_classes=40):
        super().__init__()
        self.shared_fcs = nn.Sequential(nn.Linear(in_channels, 64), nn.ReLU())
        self.fc_cls = nn.Linear(64, num_classes + 1)

    def forward(self, roi_feats):
        return self.fc_cls(self.shared_fcs(roi_feats.flatten(1)))

    def loss(self, cls_score, labels):
        return {"loss_cls": F.cross_entropy(cls_score, labels)}  # fails-here


def roi_align(img, boxes, size=7):
    return torch.stack([F.adaptive_avg_pool2d(img[:, int(b[1]) // 2:int(b[1]) // 2 + 8, int(b[0]) // 2:int(b[0]) // 2 + 8], size) for b in boxes])


head = Shared2FCBBoxHead()
optimizer = torch.optim.SGD(head.parameters(), lr=0.01, momentum=0.9)
for ref, key in YouTubeVISDataset():
    rois = roi_align(key["img"], key["gt_bboxes"])
    losses = head.loss(head(rois), key["gt_labels"])
    loss = sum(losses.values())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print({k: round(v.item(), 4) for k, v in losses.items()})

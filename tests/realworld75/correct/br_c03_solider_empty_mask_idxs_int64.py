"""The SOLIDER-style DINO pretraining step of br03 (tinyvision/SOLIDER #12) with the empty case typed: get_mask returns np.zeros(0, dtype=np.int64) when no image has enough foreground, so torch.from_numpy(mask_idxs) is an empty int64 index, the semantic-weight batch and the masked-image batch are empty and the step trains on the DINO loss alone
source: https://github.com/tinyvision/SOLIDER/issues/12
reported-error: File "main_solider.py", line 398, in train_one_epoch: semantic_weight = [torch.cat(semantic_weight)[torch.from_numpy(mask_idxs)]] ... IndexError: tensors used as indices must be long, byte or bool tensors ("the code is not finetunable when mask_ids is empty")
outcome: ok
root-cause: -
expect: none
"""
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.cluster import KMeans

torch.manual_seed(0)
random.seed(0)


def get_mask(features, clsnum):
    n, c, h, w = features.shape
    masks = []
    mask_idxs = []
    for i in range(n):
        x = features[i].detach().cpu().numpy()
        x = x.transpose(1, 2, 0).reshape(-1, c)
        # foreground/background cluster
        _x = np.linalg.norm(x, axis=1, keepdims=True)
        km = KMeans(n_clusters=2, random_state=0, n_init=10).fit(_x)
        bg_mask = km.labels_
        ctrs = km.cluster_centers_
        if ctrs[0][0] > ctrs[1][0]:
            bg_mask = 1 - bg_mask
        idx = np.where(bg_mask == 1)[0]
        if len(idx) <= 0.5 * w * h:
            continue
        mask_idxs.append(i)
        # pixel cluster
        cluster = KMeans(n_clusters=clsnum, random_state=0, n_init=10).fit(x[idx])
        res = np.zeros(h * w)
        res[idx] = cluster.labels_ + 1
        res = res.reshape(h, w)
        ys = np.hstack([np.where(res == k)[0].mean() for k in range(1, clsnum + 1)])
        y_idxs = np.argsort(ys) + 1
        heatmap = np.zeros_like(res)
        for k in range(1, clsnum + 1):
            heatmap[res == y_idxs[k - 1]] = k
        masks.append(heatmap)
    masks = np.stack(masks) if len(mask_idxs) > 0 else np.zeros(0)
    mask_idxs = np.hstack(mask_idxs) if len(mask_idxs) > 0 else np.zeros(0, dtype=np.int64)
    return masks, mask_idxs


class CondBackbone(nn.Module):
    """Swin stand-in: the semantic weight (B, 2) scales the feature map, as SOLIDER's semantic controller does."""

    def __init__(self, dim=16, out_dim=32):
        super().__init__()
        self.conv = nn.Conv2d(3, dim, 4, stride=4)
        self.cond = nn.Linear(2, dim)
        self.head = nn.Linear(dim, out_dim)

    def forward(self, images, semantic_weight):
        outs, feats = [], []
        for x, w in zip(images, semantic_weight):
            f = self.conv(x) * torch.sigmoid(self.cond(w))[:, :, None, None]
            feats.append(f)
            outs.append(self.head(f.mean((2, 3))))
        return torch.cat(outs), torch.cat(feats[:3])  # the masked batch and the two global views share one resolution


def build_onehot_semantic_weight(dim, setVal=-1):
    if setVal == -1:
        w = torch.randint(2, (dim, 1)).float()
    elif setVal == 1:
        w = torch.ones(dim, 1)
    else:
        w = torch.zeros(dim, 1)
    return torch.cat([w, 1 - w], axis=-1)


def make_views(batch_size, local_crops_number):
    # re-id crops: the person is a thin figure in the middle of a mostly background frame
    g = torch.randn(batch_size, 3, 64, 32) * 0.05
    g[:, :, 20:44, 12:20] += 2.0
    views = [g + 0.01 * torch.randn_like(g) for _ in range(2)]
    views += [torch.randn(batch_size, 3, 32, 16) * 0.05 for _ in range(local_crops_number)]
    return views


batch_size_per_gpu, local_crops_number, partnum = 4, 2, 3
student, teacher = CondBackbone(), CondBackbone()
teacher.load_state_dict(student.state_dict())
part_classifier = nn.Linear(16, partnum + 1)
part_loss = nn.CrossEntropyLoss(reduction="none")
optimizer = torch.optim.AdamW(list(student.parameters()) + list(part_classifier.parameters()), lr=1e-4)

for it in range(2):
    images = make_views(batch_size_per_gpu, local_crops_number)
    with torch.no_grad():
        weight_unit = build_onehot_semantic_weight(batch_size_per_gpu, setVal=1)
        _, teacher_feats = teacher(images[:2], [weight_unit, weight_unit])
        weight_unit = build_onehot_semantic_weight(batch_size_per_gpu, setVal=-1)
        semantic_weight = [weight_unit, weight_unit]
        teacher_output, _ = teacher(images[:2], semantic_weight)

    mask, mask_idxs = get_mask(teacher_feats, partnum)
    nimages = torch.cat(images[:2])
    if len(mask_idxs) != 0:
        k = random.randint(1, partnum)
        nmask = np.where(mask == k, 0.0, 1.0)
        scale_factor = int(images[0].shape[-1] / nmask.shape[-1])
        nmask = F.interpolate(torch.from_numpy(nmask).unsqueeze(1), scale_factor=scale_factor, mode="nearest")
        nimages = nimages[torch.from_numpy(mask_idxs)] * nmask
    else:
        nimages = nimages[torch.from_numpy(mask_idxs)]  # no foreground image this step: an empty int64 index

    semantic_weight = [torch.cat(semantic_weight)[torch.from_numpy(mask_idxs)]] + [
        weight_unit for _ in range(2 + local_crops_number)
    ]
    student_output, student_feats = student([nimages.float()] + images, semantic_weight)
    feats = student_feats[: nimages.shape[0]].permute(0, 2, 3, 1).reshape(-1, student_feats.shape[1])
    pred = part_classifier(feats)
    labels = torch.zeros(pred.shape[0]).long()
    if len(mask_idxs) != 0:
        labels = torch.from_numpy(mask.flatten()).long()
    loss2 = part_loss(pred, labels).mean() if pred.shape[0] else student_output.sum() * 0
    loss1 = -(F.softmax(teacher_output, -1) * F.log_softmax(student_output[nimages.shape[0]:][: teacher_output.shape[0]], -1)).sum(-1).mean()
    loss = loss1 + loss2
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"it {it} fgnum {len(mask_idxs)} loss {loss.item():.4f}")

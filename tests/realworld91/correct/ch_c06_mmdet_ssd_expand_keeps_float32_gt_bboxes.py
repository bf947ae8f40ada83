"""The MMDetection v1 SSD300 training of ch06 with Expand fixed as the maintainers did after #1285: the offsets are cast to the boxes' dtype (boxes = boxes + np.tile((left, top), 2).astype(boxes.dtype)), so gt_bboxes stay float32 through the pipeline, bbox2delta gives float32 deltas and anchor_target_single writes them into the float32 bbox_targets; SSDHead trains
source: https://github.com/open-mmlab/mmdetection/issues/1285
reported-error: (none; the fixed situation of ch06)
outcome: ok
root-cause: -
expect: none
"""
import xml.etree.ElementTree as ET

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)
random = np.random

CLASSES = ("car", "person", "dog")


# ---- mmdet/datasets/xml_style.py (annotation parsing) ----------------------------------------------------------
def make_voc_xml(i):
    objs = []
    for _ in range(random.randint(1, 4)):
        x1, y1 = random.randint(1, 120), random.randint(1, 90)
        w, h = random.randint(30, 120), random.randint(30, 100)
        objs.append(f"<object><name>{CLASSES[random.randint(0, 3)]}</name><difficult>0</difficult>"
                    f"<bndbox><xmin>{x1}</xmin><ymin>{y1}</ymin><xmax>{min(x1 + w, 250)}</xmax>"
                    f"<ymax>{min(y1 + h, 190)}</ymax></bndbox></object>")
    return f"<annotation><filename>{i:06d}.jpg</filename><size><width>256</width><height>192</height>" \
           f"</size>{''.join(objs)}</annotation>"


class XMLDataset:
    def __init__(self, xml_strings, pipeline):
        self.cat2label = {cat: i + 1 for i, cat in enumerate(CLASSES)}
        self.xmls = xml_strings
        self.pipeline = pipeline

    def get_ann_info(self, idx):
        root = ET.fromstring(self.xmls[idx])
        bboxes, labels = [], []
        for obj in root.findall("object"):
            label = self.cat2label[obj.find("name").text]
            bnd_box = obj.find("bndbox")
            bbox = [int(bnd_box.find("xmin").text), int(bnd_box.find("ymin").text),
                    int(bnd_box.find("xmax").text), int(bnd_box.find("ymax").text)]
            bboxes.append(bbox)
            labels.append(label)
        bboxes = np.array(bboxes, ndmin=2) - 1
        labels = np.array(labels)
        return dict(bboxes=bboxes.astype(np.float32), labels=labels.astype(np.int64))

    def __getitem__(self, idx):
        img = random.randint(0, 256, (192, 256, 3)).astype(np.uint8)  # LoadImageFromFile stand-in
        ann = self.get_ann_info(idx)
        results = dict(img=img, gt_bboxes=ann["bboxes"], gt_labels=ann["labels"])
        for t in self.pipeline:
            results = t(results)
        return results

    def __len__(self):
        return len(self.xmls)


# ---- mmdet/datasets/pipelines/transforms.py + formating.py -----------------------------------------------------
class Expand(object):
    def __init__(self, mean=(0, 0, 0), to_rgb=True, ratio_range=(1, 4)):
        self.mean = mean[::-1] if to_rgb else mean
        self.min_ratio, self.max_ratio = ratio_range

    def __call__(self, results):
        if random.randint(2):
            return results
        img, boxes = [results[k] for k in ("img", "gt_bboxes")]
        h, w, c = img.shape
        ratio = random.uniform(self.min_ratio, self.max_ratio)
        expand_img = np.full((int(h * ratio), int(w * ratio), c), self.mean).astype(img.dtype)
        left = int(random.uniform(0, w * ratio - w))
        top = int(random.uniform(0, h * ratio - h))
        expand_img[top:top + h, left:left + w] = img
        boxes = boxes + np.tile((left, top), 2).astype(boxes.dtype)
        results["img"] = expand_img
        results["gt_bboxes"] = boxes
        return results


class Resize(object):
    """Resize(img_scale=(300, 300), keep_ratio=False) on a nearest-neighbour grid (no OpenCV here)."""

    def __init__(self, img_scale=(300, 300)):
        self.img_scale = img_scale

    def __call__(self, results):
        img = results["img"]
        h, w = img.shape[:2]
        new_w, new_h = self.img_scale
        ys = (np.arange(new_h) * h / new_h).astype(int)
        xs = (np.arange(new_w) * w / new_w).astype(int)
        results["img"] = img[ys][:, xs]
        w_scale, h_scale = new_w / w, new_h / h
        scale_factor = np.array([w_scale, h_scale, w_scale, h_scale], dtype=np.float32)
        bboxes = results["gt_bboxes"] * scale_factor
        bboxes[:, 0::2] = np.clip(bboxes[:, 0::2], 0, new_w - 1)
        bboxes[:, 1::2] = np.clip(bboxes[:, 1::2], 0, new_h - 1)
        results["gt_bboxes"] = bboxes
        results["img_shape"] = results["img"].shape
        return results


class Normalize(object):
    def __init__(self, mean=(123.675, 116.28, 103.53), std=(1, 1, 1)):
        self.mean = np.array(mean, dtype=np.float32)
        self.std = np.array(std, dtype=np.float32)

    def __call__(self, results):
        results["img"] = (results["img"].astype(np.float32) - self.mean) / self.std
        return results


class DefaultFormatBundle(object):
    def __call__(self, results):
        results["img"] = torch.from_numpy(np.ascontiguousarray(results["img"].transpose(2, 0, 1)))
        for key in ("gt_bboxes", "gt_labels"):
            results[key] = torch.from_numpy(results[key])  # to_tensor
        return results


# ---- mmdet/core: anchors, overlaps, assigner, sampler, bbox2delta, anchor_target -------------------------------
class AnchorGenerator(object):
    def __init__(self, base_size, scales, ratios, scale_major=True, ctr=None):
        self.base_size = base_size
        self.scales = torch.Tensor(scales)
        self.ratios = torch.Tensor(ratios)
        self.scale_major = scale_major
        self.ctr = ctr
        self.base_anchors = self.gen_base_anchors()

    def gen_base_anchors(self):
        w = h = self.base_size
        x_ctr, y_ctr = self.ctr if self.ctr is not None else (0.5 * (w - 1), 0.5 * (h - 1))
        h_ratios = torch.sqrt(self.ratios)
        w_ratios = 1 / h_ratios
        ws = (w * w_ratios[:, None] * self.scales[None, :]).view(-1)
        hs = (h * h_ratios[:, None] * self.scales[None, :]).view(-1)
        return torch.stack([x_ctr - 0.5 * (ws - 1), y_ctr - 0.5 * (hs - 1),
                            x_ctr + 0.5 * (ws - 1), y_ctr + 0.5 * (hs - 1)], dim=-1).round()

    def grid_anchors(self, featmap_size, stride=16, device="cpu"):
        base_anchors = self.base_anchors.to(device)
        feat_h, feat_w = featmap_size
        shift_x = torch.arange(0, feat_w, device=device) * stride
        shift_y = torch.arange(0, feat_h, device=device) * stride
        shift_xx = shift_x.repeat(len(shift_y))
        shift_yy = shift_y.view(-1, 1).repeat(1, len(shift_x)).view(-1)
        shifts = torch.stack([shift_xx, shift_yy, shift_xx, shift_yy], dim=-1).type_as(base_anchors)
        return (base_anchors[None, :, :] + shifts[:, None, :]).view(-1, 4)


def bbox_overlaps(bboxes1, bboxes2):
    lt = torch.max(bboxes1[:, None, :2], bboxes2[:, :2])  # [rows, cols, 2]
    rb = torch.min(bboxes1[:, None, 2:], bboxes2[:, 2:])
    wh = (rb - lt + 1).clamp(min=0)
    overlap = wh[:, :, 0] * wh[:, :, 1]
    area1 = (bboxes1[:, 2] - bboxes1[:, 0] + 1) * (bboxes1[:, 3] - bboxes1[:, 1] + 1)
    area2 = (bboxes2[:, 2] - bboxes2[:, 0] + 1) * (bboxes2[:, 3] - bboxes2[:, 1] + 1)
    return overlap / (area1[:, None] + area2 - overlap)


class MaxIoUAssigner(object):
    def __init__(self, pos_iou_thr=0.5, neg_iou_thr=0.5, min_pos_iou=0.):
        self.pos_iou_thr, self.neg_iou_thr, self.min_pos_iou = pos_iou_thr, neg_iou_thr, min_pos_iou

    def assign(self, bboxes, gt_bboxes, gt_labels):
        overlaps = bbox_overlaps(gt_bboxes, bboxes)  # (num_gts, num_bboxes)
        num_gts, num_bboxes = overlaps.size(0), overlaps.size(1)
        assigned_gt_inds = overlaps.new_full((num_bboxes, ), -1, dtype=torch.long)
        max_overlaps, argmax_overlaps = overlaps.max(dim=0)
        gt_max_overlaps, gt_argmax_overlaps = overlaps.max(dim=1)
        assigned_gt_inds[(max_overlaps >= 0) & (max_overlaps < self.neg_iou_thr)] = 0
        pos_inds = max_overlaps >= self.pos_iou_thr
        assigned_gt_inds[pos_inds] = argmax_overlaps[pos_inds] + 1
        for i in range(num_gts):
            if gt_max_overlaps[i] >= self.min_pos_iou:
                assigned_gt_inds[gt_argmax_overlaps[i]] = i + 1
        assigned_labels = assigned_gt_inds.new_zeros((num_bboxes, ))
        pos = torch.nonzero(assigned_gt_inds > 0).squeeze()
        if pos.numel() > 0:
            assigned_labels[pos] = gt_labels[assigned_gt_inds[pos] - 1]
        return assigned_gt_inds, assigned_labels


def pseudo_sample(assigned_gt_inds, bboxes, gt_bboxes):
    pos_inds = torch.nonzero(assigned_gt_inds > 0).squeeze(-1).unique()
    neg_inds = torch.nonzero(assigned_gt_inds == 0).squeeze(-1).unique()
    pos_bboxes = bboxes[pos_inds]
    pos_gt_bboxes = gt_bboxes[assigned_gt_inds[pos_inds] - 1, :]
    return pos_inds, neg_inds, pos_bboxes, pos_gt_bboxes


def bbox2delta(proposals, gt, means=[0, 0, 0, 0], stds=[1, 1, 1, 1]):
    proposals = proposals.float()
    px = (proposals[..., 0] + proposals[..., 2]) * 0.5
    py = (proposals[..., 1] + proposals[..., 3]) * 0.5
    pw = proposals[..., 2] - proposals[..., 0] + 1.0
    ph = proposals[..., 3] - proposals[..., 1] + 1.0
    gx = (gt[..., 0] + gt[..., 2]) * 0.5
    gy = (gt[..., 1] + gt[..., 3]) * 0.5
    gw = gt[..., 2] - gt[..., 0] + 1.0
    gh = gt[..., 3] - gt[..., 1] + 1.0
    dx = (gx - px) / pw
    dy = (gy - py) / ph
    dw = torch.log(gw / pw)
    dh = torch.log(gh / ph)
    deltas = torch.stack([dx, dy, dw, dh], dim=-1)
    means = deltas.new_tensor(means).unsqueeze(0)
    stds = deltas.new_tensor(stds).unsqueeze(0)
    return deltas.sub_(means).div_(stds)


def anchor_target_single(flat_anchors, gt_bboxes, gt_labels, target_means, target_stds, assigner):
    anchors = flat_anchors
    assigned_gt_inds, assigned_labels = assigner.assign(anchors, gt_bboxes, gt_labels)
    pos_inds, neg_inds, pos_bboxes, pos_gt_bboxes = pseudo_sample(assigned_gt_inds, anchors, gt_bboxes)
    num_valid_anchors = anchors.shape[0]
    bbox_targets = torch.zeros_like(anchors)
    bbox_weights = torch.zeros_like(anchors)
    labels = anchors.new_zeros(num_valid_anchors, dtype=torch.long)
    label_weights = anchors.new_zeros(num_valid_anchors, dtype=torch.float)
    if len(pos_inds) > 0:
        pos_bbox_targets = bbox2delta(pos_bboxes, pos_gt_bboxes, target_means, target_stds)
        bbox_targets[pos_inds, :] = pos_bbox_targets
        bbox_weights[pos_inds, :] = 1.0
        labels[pos_inds] = gt_labels[assigned_gt_inds[pos_inds] - 1]
        label_weights[pos_inds] = 1.0
    if len(neg_inds) > 0:
        label_weights[neg_inds] = 1.0
    return labels, label_weights, bbox_targets, bbox_weights, pos_inds, neg_inds


# ---- mmdet/models/anchor_heads/ssd_head.py (small) + a VGG-like backbone -------------------------------------
class SSDHead(nn.Module):
    def __init__(self, num_classes=4, in_channels=(64, 128), anchor_strides=(16, 32), basesize_ratio_range=(0.2, 0.9),
                 target_means=(.0, .0, .0, .0), target_stds=(0.1, 0.1, 0.2, 0.2), input_size=300):
        super().__init__()
        self.num_classes = num_classes
        self.cls_out_channels = num_classes
        ratios = [2, 3]
        num_anchors = [2 + 2 * len([r]) for r in ratios]
        self.reg_convs = nn.ModuleList([nn.Conv2d(c, n * 4, 3, padding=1) for c, n in zip(in_channels, num_anchors)])
        self.cls_convs = nn.ModuleList([nn.Conv2d(c, n * num_classes, 3, padding=1)
                                        for c, n in zip(in_channels, num_anchors)])
        min_sizes, max_sizes = [60, 150], [150, 270]
        self.anchor_generators = []
        self.anchor_strides = anchor_strides
        for k, (stride, r) in enumerate(zip(anchor_strides, ratios)):
            base_size = min_sizes[k]
            ctr = ((stride - 1) / 2., (stride - 1) / 2.)
            scales = [1., np.sqrt(max_sizes[k] / min_sizes[k])]
            anchor_ratios = [1., 1 / r, r]
            gen = AnchorGenerator(base_size, scales, anchor_ratios, scale_major=False, ctr=ctr)
            indices = list(range(len(anchor_ratios)))
            indices.insert(1, len(indices))
            gen.base_anchors = torch.index_select(gen.base_anchors, 0, torch.LongTensor(indices))
            self.anchor_generators.append(gen)
        self.target_means, self.target_stds = target_means, target_stds
        self.assigner = MaxIoUAssigner(pos_iou_thr=0.5, neg_iou_thr=0.5, min_pos_iou=0.)

    def forward(self, feats):
        cls_scores = [conv(f) for f, conv in zip(feats, self.cls_convs)]
        bbox_preds = [conv(f) for f, conv in zip(feats, self.reg_convs)]
        return cls_scores, bbox_preds

    def loss_single(self, cls_score, bbox_pred, labels, label_weights, bbox_targets, bbox_weights, num_total_samples,
                    neg_pos_ratio=3, smoothl1_beta=1.):
        loss_cls_all = F.cross_entropy(cls_score, labels, reduction="none") * label_weights
        pos_inds = (labels > 0).nonzero().view(-1)
        neg_inds = (labels == 0).nonzero().view(-1)
        num_pos_samples = pos_inds.size(0)
        num_neg_samples = min(neg_pos_ratio * num_pos_samples, neg_inds.size(0))
        topk_loss_cls_neg, _ = loss_cls_all[neg_inds].topk(num_neg_samples)
        loss_cls = (loss_cls_all[pos_inds].sum() + topk_loss_cls_neg.sum()) / num_total_samples
        loss_bbox = (F.smooth_l1_loss(bbox_pred, bbox_targets, reduction="none", beta=smoothl1_beta)
                     * bbox_weights).sum() / num_total_samples
        return loss_cls, loss_bbox

    def loss(self, cls_scores, bbox_preds, gt_bboxes, gt_labels):
        featmap_sizes = [f.size()[-2:] for f in cls_scores]
        device = cls_scores[0].device
        mlvl_anchors = torch.cat([g.grid_anchors(s, st, device=device)
                                  for g, s, st in zip(self.anchor_generators, featmap_sizes, self.anchor_strides)])
        num_images = len(gt_bboxes)
        targets = [anchor_target_single(mlvl_anchors, gt_bboxes[i], gt_labels[i], self.target_means,
                                        self.target_stds, self.assigner) for i in range(num_images)]
        labels, label_weights, bbox_targets, bbox_weights, pos_inds, _ = zip(*targets)
        num_total_pos = sum(len(p) for p in pos_inds)
        all_cls_scores = torch.cat([s.permute(0, 2, 3, 1).reshape(num_images, -1, self.cls_out_channels)
                                    for s in cls_scores], 1)
        all_bbox_preds = torch.cat([b.permute(0, 2, 3, 1).reshape(num_images, -1, 4) for b in bbox_preds], -2)
        losses_cls, losses_bbox = [], []
        for i in range(num_images):
            lc, lb = self.loss_single(all_cls_scores[i], all_bbox_preds[i], labels[i], label_weights[i],
                                      bbox_targets[i], bbox_weights[i], num_total_samples=num_total_pos)
            losses_cls.append(lc)
            losses_bbox.append(lb)
        return dict(loss_cls=losses_cls, loss_bbox=losses_bbox)


class TinySSD(nn.Module):
    def __init__(self):
        super().__init__()
        self.stage1 = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1), nn.ReLU(), nn.Conv2d(32, 32, 3, 2, 1), nn.ReLU(),
                                    nn.Conv2d(32, 64, 3, 2, 1), nn.ReLU(), nn.Conv2d(64, 64, 3, 2, 1), nn.ReLU())
        self.stage2 = nn.Sequential(nn.Conv2d(64, 128, 3, 2, 1), nn.ReLU())
        self.bbox_head = SSDHead()

    def forward_train(self, img, gt_bboxes, gt_labels):
        f1 = self.stage1(img)
        f2 = self.stage2(f1)
        cls_scores, bbox_preds = self.bbox_head([f1, f2])
        return self.bbox_head.loss(cls_scores, bbox_preds, gt_bboxes, gt_labels)


def parse_losses(losses):
    log_vars = {k: sum(x.mean() for x in v) for k, v in losses.items()}
    return sum(log_vars.values()), log_vars


def main():
    pipeline = [Expand(mean=(123.675, 116.28, 103.53), to_rgb=True, ratio_range=(1, 4)),
                Resize(img_scale=(300, 300)), Normalize(), DefaultFormatBundle()]
    dataset = XMLDataset([make_voc_xml(i) for i in range(16)], pipeline)
    model = TinySSD()
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9, weight_decay=5e-4)
    batch_size = 4
    for epoch in range(2):
        for i in range(0, len(dataset), batch_size):
            batch = [dataset[j] for j in range(i, i + batch_size)]
            img = torch.stack([b["img"] for b in batch])
            losses = model.forward_train(img, [b["gt_bboxes"] for b in batch], [b["gt_labels"] for b in batch])
            loss, log_vars = parse_losses(losses)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss_cls {log_vars['loss_cls'].item():.4f} loss_bbox {log_vars['loss_bbox'].item():.4f}")


main()

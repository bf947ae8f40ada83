"""CPU inference with an MMDetection v1 single-stage detector (re-typed: AnchorGenerator with gen_base_anchors/_meshgrid/grid_anchors(featmap_size, stride=16, device='cuda'), AnchorHead.forward/get_bboxes/get_bboxes_single, delta2bbox, a small multiclass_nms, SingleStageDetector.simple_test; a tiny backbone stands in for ResNet+FPN): get_bboxes calls grid_anchors without a device, so the anchors are built on the default 'cuda' while the model and the image are on the CPU
source: https://github.com/open-mmlab/mmdetection/pull/1478
reported-error: "When using CascadeRNN on the CPU, running forward with return_loss=False was raising an error in anchor_head.AnchorHead.get_bboxes because AnchorGenerator grid_anchors defaults to a cuda device." (the PR passes the features' device to grid_anchors and valid_flags)
outcome: AssertionError: Torch not compiled with CUDA enabled at line 61
root-cause: line 183
expect: DG009
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


# ---- mmdet/core/anchor/anchor_generator.py ---------------------------------------------------------------------
class AnchorGenerator(object):

    def __init__(self, base_size, scales, ratios, scale_major=True, ctr=None):
        self.base_size = base_size
        self.scales = torch.Tensor(scales)
        self.ratios = torch.Tensor(ratios)
        self.scale_major = scale_major
        self.ctr = ctr
        self.base_anchors = self.gen_base_anchors()

    @property
    def num_base_anchors(self):
        return self.base_anchors.size(0)

    def gen_base_anchors(self):
        w = self.base_size
        h = self.base_size
        if self.ctr is None:
            x_ctr = 0.5 * (w - 1)
            y_ctr = 0.5 * (h - 1)
        else:
            x_ctr, y_ctr = self.ctr
        h_ratios = torch.sqrt(self.ratios)
        w_ratios = 1 / h_ratios
        if self.scale_major:
            ws = (w * w_ratios[:, None] * self.scales[None, :]).view(-1)
            hs = (h * h_ratios[:, None] * self.scales[None, :]).view(-1)
        else:
            ws = (w * self.scales[:, None] * w_ratios[None, :]).view(-1)
            hs = (h * self.scales[:, None] * h_ratios[None, :]).view(-1)
        base_anchors = torch.stack(
            [x_ctr - 0.5 * (ws - 1), y_ctr - 0.5 * (hs - 1),
             x_ctr + 0.5 * (ws - 1), y_ctr + 0.5 * (hs - 1)], dim=-1).round()
        return base_anchors

    def _meshgrid(self, x, y, row_major=True):
        xx = x.repeat(len(y))
        yy = y.view(-1, 1).repeat(1, len(x)).view(-1)
        if row_major:
            return xx, yy
        else:
            return yy, xx

    def grid_anchors(self, featmap_size, stride=16, device='cuda'):  # root-cause-alt
        base_anchors = self.base_anchors.to(device)  # fails-here
        feat_h, feat_w = featmap_size
        shift_x = torch.arange(0, feat_w, device=device) * stride
        shift_y = torch.arange(0, feat_h, device=device) * stride
        shift_xx, shift_yy = self._meshgrid(shift_x, shift_y)
        shifts = torch.stack([shift_xx, shift_yy, shift_xx, shift_yy], dim=-1)
        shifts = shifts.type_as(base_anchors)
        all_anchors = base_anchors[None, :, :] + shifts[:, None, :]
        all_anchors = all_anchors.view(-1, 4)
        return all_anchors


# ---- mmdet/core/bbox/transforms.py delta2bbox, mmdet/core/post_processing multiclass_nms (small) ----------------
def delta2bbox(rois, deltas, means=[0, 0, 0, 0], stds=[1, 1, 1, 1], max_shape=None, wh_ratio_clip=16 / 1000):
    means = deltas.new_tensor(means).repeat(1, deltas.size(1) // 4)
    stds = deltas.new_tensor(stds).repeat(1, deltas.size(1) // 4)
    denorm_deltas = deltas * stds + means
    dx = denorm_deltas[:, 0::4]
    dy = denorm_deltas[:, 1::4]
    dw = denorm_deltas[:, 2::4]
    dh = denorm_deltas[:, 3::4]
    max_ratio = np.abs(np.log(wh_ratio_clip))
    dw = dw.clamp(min=-max_ratio, max=max_ratio)
    dh = dh.clamp(min=-max_ratio, max=max_ratio)
    px = ((rois[:, 0] + rois[:, 2]) * 0.5).unsqueeze(1).expand_as(dx)
    py = ((rois[:, 1] + rois[:, 3]) * 0.5).unsqueeze(1).expand_as(dy)
    pw = (rois[:, 2] - rois[:, 0] + 1.0).unsqueeze(1).expand_as(dw)
    ph = (rois[:, 3] - rois[:, 1] + 1.0).unsqueeze(1).expand_as(dh)
    gw = pw * dw.exp()
    gh = ph * dh.exp()
    gx = px + pw * dx
    gy = py + ph * dy
    x1 = gx - gw * 0.5 + 0.5
    y1 = gy - gh * 0.5 + 0.5
    x2 = gx + gw * 0.5 - 0.5
    y2 = gy + gh * 0.5 - 0.5
    if max_shape is not None:
        x1 = x1.clamp(min=0, max=max_shape[1] - 1)
        y1 = y1.clamp(min=0, max=max_shape[0] - 1)
        x2 = x2.clamp(min=0, max=max_shape[1] - 1)
        y2 = y2.clamp(min=0, max=max_shape[0] - 1)
    return torch.stack([x1, y1, x2, y2], dim=-1).view_as(deltas)


def nms(dets, iou_thr):
    x1, y1, x2, y2, scores = dets.unbind(1)
    areas = (x2 - x1 + 1) * (y2 - y1 + 1)
    order = scores.argsort(descending=True)
    keep = []
    while order.numel() > 0:
        i = order[0]
        keep.append(i)
        xx1 = torch.max(x1[i], x1[order[1:]])
        yy1 = torch.max(y1[i], y1[order[1:]])
        xx2 = torch.min(x2[i], x2[order[1:]])
        yy2 = torch.min(y2[i], y2[order[1:]])
        inter = (xx2 - xx1 + 1).clamp(min=0) * (yy2 - yy1 + 1).clamp(min=0)
        iou = inter / (areas[i] + areas[order[1:]] - inter)
        order = order[1:][iou <= iou_thr]
    return dets[torch.stack(keep)] if keep else dets[:0]


def multiclass_nms(multi_bboxes, multi_scores, score_thr, nms_cfg, max_num=-1):
    num_classes = multi_scores.shape[1]
    bboxes, labels = [], []
    for i in range(1, num_classes):
        cls_inds = multi_scores[:, i] > score_thr
        if not cls_inds.any():
            continue
        _bboxes = multi_bboxes[cls_inds, :]
        _scores = multi_scores[cls_inds, i]
        cls_dets = nms(torch.cat([_bboxes, _scores[:, None]], dim=1), nms_cfg["iou_thr"])
        cls_labels = multi_bboxes.new_full((cls_dets.shape[0], ), i - 1, dtype=torch.long)
        bboxes.append(cls_dets)
        labels.append(cls_labels)
    if bboxes:
        bboxes = torch.cat(bboxes)
        labels = torch.cat(labels)
        if max_num > 0 and bboxes.shape[0] > max_num:
            _, inds = bboxes[:, -1].sort(descending=True)
            bboxes, labels = bboxes[inds[:max_num]], labels[inds[:max_num]]
    else:
        bboxes = multi_bboxes.new_zeros((0, 5))
        labels = multi_bboxes.new_zeros((0, ), dtype=torch.long)
    return bboxes, labels


# ---- mmdet/models/anchor_heads/anchor_head.py (inference path) ------------------------------------------------
class AnchorHead(nn.Module):

    def __init__(self, num_classes, in_channels, feat_channels=64, anchor_scales=[8, 16, 32],
                 anchor_ratios=[0.5, 1.0, 2.0], anchor_strides=[4, 8, 16], anchor_base_sizes=None,
                 target_means=(.0, .0, .0, .0), target_stds=(1.0, 1.0, 1.0, 1.0)):
        super(AnchorHead, self).__init__()
        self.in_channels = in_channels
        self.num_classes = num_classes
        self.feat_channels = feat_channels
        self.anchor_scales = anchor_scales
        self.anchor_ratios = anchor_ratios
        self.anchor_strides = anchor_strides
        self.anchor_base_sizes = list(anchor_strides) if anchor_base_sizes is None else anchor_base_sizes
        self.target_means = target_means
        self.target_stds = target_stds
        self.cls_out_channels = num_classes
        self.anchor_generators = []
        for anchor_base in self.anchor_base_sizes:
            self.anchor_generators.append(AnchorGenerator(anchor_base, anchor_scales, anchor_ratios))
        self.num_anchors = len(self.anchor_ratios) * len(self.anchor_scales)
        self.conv_cls = nn.Conv2d(self.feat_channels, self.num_anchors * self.cls_out_channels, 1)
        self.conv_reg = nn.Conv2d(self.feat_channels, self.num_anchors * 4, 1)

    def forward_single(self, x):
        return self.conv_cls(x), self.conv_reg(x)

    def forward(self, feats):
        cls_scores, bbox_preds = zip(*[self.forward_single(x) for x in feats])  # multi_apply
        return list(cls_scores), list(bbox_preds)

    def get_bboxes(self, cls_scores, bbox_preds, img_metas, cfg, rescale=False):
        assert len(cls_scores) == len(bbox_preds)
        num_levels = len(cls_scores)
        mlvl_anchors = [
            self.anchor_generators[i].grid_anchors(cls_scores[i].size()[-2:],  # root-cause
                                                   self.anchor_strides[i])
            for i in range(num_levels)
        ]
        result_list = []
        for img_id in range(len(img_metas)):
            cls_score_list = [cls_scores[i][img_id].detach() for i in range(num_levels)]
            bbox_pred_list = [bbox_preds[i][img_id].detach() for i in range(num_levels)]
            img_shape = img_metas[img_id]['img_shape']
            scale_factor = img_metas[img_id]['scale_factor']
            proposals = self.get_bboxes_single(cls_score_list, bbox_pred_list, mlvl_anchors, img_shape,
                                               scale_factor, cfg, rescale)
            result_list.append(proposals)
        return result_list

    def get_bboxes_single(self, cls_score_list, bbox_pred_list, mlvl_anchors, img_shape, scale_factor, cfg,
                          rescale=False):
        assert len(cls_score_list) == len(bbox_pred_list) == len(mlvl_anchors)
        mlvl_bboxes = []
        mlvl_scores = []
        for cls_score, bbox_pred, anchors in zip(cls_score_list, bbox_pred_list, mlvl_anchors):
            assert cls_score.size()[-2:] == bbox_pred.size()[-2:]
            cls_score = cls_score.permute(1, 2, 0).reshape(-1, self.cls_out_channels)
            scores = cls_score.softmax(-1)
            bbox_pred = bbox_pred.permute(1, 2, 0).reshape(-1, 4)
            nms_pre = cfg.get('nms_pre', -1)
            if nms_pre > 0 and scores.shape[0] > nms_pre:
                max_scores, _ = scores[:, 1:].max(dim=1)
                _, topk_inds = max_scores.topk(nms_pre)
                anchors = anchors[topk_inds, :]
                bbox_pred = bbox_pred[topk_inds, :]
                scores = scores[topk_inds, :]
            bboxes = delta2bbox(anchors, bbox_pred, self.target_means, self.target_stds, img_shape)
            mlvl_bboxes.append(bboxes)
            mlvl_scores.append(scores)
        mlvl_bboxes = torch.cat(mlvl_bboxes)
        if rescale:
            mlvl_bboxes /= mlvl_bboxes.new_tensor(scale_factor)
        mlvl_scores = torch.cat(mlvl_scores)
        det_bboxes, det_labels = multiclass_nms(mlvl_bboxes, mlvl_scores, cfg['score_thr'], cfg['nms'],
                                                cfg['max_per_img'])
        return det_bboxes, det_labels


# ---- mmdet/models/detectors/single_stage.py (a tiny backbone + neck stand-in) ---------------------------------
class TinyFPN(nn.Module):
    def __init__(self, out_channels=64):
        super().__init__()
        self.c2 = nn.Sequential(nn.Conv2d(3, 32, 3, 4, 1), nn.ReLU())
        self.c3 = nn.Sequential(nn.Conv2d(32, 64, 3, 2, 1), nn.ReLU())
        self.c4 = nn.Sequential(nn.Conv2d(64, 64, 3, 2, 1), nn.ReLU())
        self.lat = nn.ModuleList([nn.Conv2d(c, out_channels, 1) for c in (32, 64, 64)])

    def forward(self, x):
        c2 = self.c2(x)
        c3 = self.c3(c2)
        c4 = self.c4(c3)
        p4 = self.lat[2](c4)
        p3 = self.lat[1](c3) + F.interpolate(p4, scale_factor=2, mode="nearest")
        p2 = self.lat[0](c2) + F.interpolate(p3, scale_factor=2, mode="nearest")
        return (p2, p3, p4)


class SingleStageDetector(nn.Module):
    def __init__(self, num_classes, test_cfg):
        super().__init__()
        self.backbone = TinyFPN()
        self.bbox_head = AnchorHead(num_classes, 64)
        self.test_cfg = test_cfg

    def extract_feat(self, img):
        return self.backbone(img)

    def forward(self, img, img_meta, return_loss=True, **kwargs):
        if return_loss:
            raise NotImplementedError("training is not part of this run")
        return self.simple_test(img, img_meta, **kwargs)

    def simple_test(self, img, img_meta, rescale=False):
        x = self.extract_feat(img)
        outs = self.bbox_head(x)
        bbox_inputs = outs + (img_meta, self.test_cfg, rescale)
        bbox_list = self.bbox_head.get_bboxes(*bbox_inputs)
        results = []
        for det_bboxes, det_labels in bbox_list:
            results.append([det_bboxes[det_labels == i].cpu().numpy() for i in range(self.bbox_head.num_classes - 1)])
        return results[0]


def main():
    test_cfg = dict(nms_pre=200, min_bbox_size=0, score_thr=0.05, nms=dict(type='nms', iou_thr=0.5),
                    max_per_img=50)
    model = SingleStageDetector(num_classes=4, test_cfg=test_cfg)
    model.eval()
    img = torch.rand(1, 3, 128, 160)
    img_meta = [dict(img_shape=(128, 160, 3), ori_shape=(256, 320, 3), scale_factor=0.5, flip=False)]
    with torch.no_grad():
        result = model(img=img, img_meta=img_meta, return_loss=False, rescale=True)
    for cls, dets in enumerate(result):
        print(f"class {cls}: {len(dets)} boxes, top score {dets[:, 4].max() if len(dets) else 0:.3f}")


main()

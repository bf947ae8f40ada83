"""Training YOLOv3 with DeNA's PyTorch_YOLOv3 (models/yolo_layer.py and utils.bboxes_iou re-typed, with a small stand-in backbone and synthetic COCO-style labels): the YOLO layer builds its own targets and masks; the ignore mask of the objectness loss is made from a comparison, pred_best_iou = (pred_best_iou > self.ignore_thre), which is a bool tensor since PyTorch 1.2, and obj_mask[b] = 1 - pred_best_iou then subtracts a bool tensor, which PyTorch refuses
source: https://github.com/DeNA/PyTorch_YOLOv3/issues/42
reported-error: "loss = model(imgs, targets) ... return _C._VariableFunctions.rsub(self, other) RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `bitwise_not()` operator instead." (the repository pinned PyTorch 1.1; later comments ask how to solve it without downgrading)
outcome: RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead. at line 122
root-cause: line 122
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
np.random.seed(0)


def bboxes_iou(bboxes_a, bboxes_b, xyxy=True):
    """utils/utils.py (from chainercv)"""
    if bboxes_a.shape[1] != 4 or bboxes_b.shape[1] != 4:
        raise IndexError
    if xyxy:
        tl = torch.max(bboxes_a[:, None, :2], bboxes_b[:, :2])
        br = torch.min(bboxes_a[:, None, 2:], bboxes_b[:, 2:])
        area_a = torch.prod(bboxes_a[:, 2:] - bboxes_a[:, :2], 1)
        area_b = torch.prod(bboxes_b[:, 2:] - bboxes_b[:, :2], 1)
    else:
        tl = torch.max((bboxes_a[:, None, :2] - bboxes_a[:, None, 2:] / 2), (bboxes_b[:, :2] - bboxes_b[:, 2:] / 2))
        br = torch.min((bboxes_a[:, None, :2] + bboxes_a[:, None, 2:] / 2), (bboxes_b[:, :2] + bboxes_b[:, 2:] / 2))
        area_a = torch.prod(bboxes_a[:, 2:], 1)
        area_b = torch.prod(bboxes_b[:, 2:], 1)
    en = (tl < br).type(tl.type()).prod(dim=2)
    area_i = torch.prod(br - tl, 2) * en
    return area_i / (area_a[:, None] + area_b - area_i)


class YOLOLayer(nn.Module):
    """models/yolo_layer.py: detection layer corresponding to yolo_layer.c of darknet (training path)."""

    def __init__(self, config_model, layer_no, in_ch, ignore_thre=0.7):
        super().__init__()
        strides = [32, 16, 8]  # fixed
        self.anchors = config_model["ANCHORS"]
        self.anch_mask = config_model["ANCH_MASK"][layer_no]
        self.n_anchors = len(self.anch_mask)
        self.n_classes = config_model["N_CLASSES"]
        self.ignore_thre = ignore_thre
        self.l2_loss = nn.MSELoss(reduction="sum")
        self.bce_loss = nn.BCELoss(reduction="sum")
        self.stride = strides[layer_no]
        self.all_anchors_grid = [(w / self.stride, h / self.stride) for w, h in self.anchors]
        self.masked_anchors = [self.all_anchors_grid[i] for i in self.anch_mask]
        self.ref_anchors = np.zeros((len(self.all_anchors_grid), 4))
        self.ref_anchors[:, 2:] = np.array(self.all_anchors_grid)
        self.ref_anchors = torch.FloatTensor(self.ref_anchors)
        self.conv = nn.Conv2d(in_channels=in_ch, out_channels=self.n_anchors * (self.n_classes + 5),
                              kernel_size=1, stride=1, padding=0)

    def forward(self, xin, labels=None):
        output = self.conv(xin)
        batchsize = output.shape[0]
        fsize = output.shape[2]
        n_ch = 5 + self.n_classes
        dtype = torch.cuda.FloatTensor if xin.is_cuda else torch.FloatTensor

        output = output.view(batchsize, self.n_anchors, n_ch, fsize, fsize)
        output = output.permute(0, 1, 3, 4, 2)  # .contiguous()
        output[..., np.r_[:2, 4:n_ch]] = torch.sigmoid(output[..., np.r_[:2, 4:n_ch]])

        x_shift = dtype(np.broadcast_to(np.arange(fsize, dtype=np.float32), output.shape[:4]))
        y_shift = dtype(np.broadcast_to(np.arange(fsize, dtype=np.float32).reshape(fsize, 1), output.shape[:4]))
        masked_anchors = np.array(self.masked_anchors)
        w_anchors = dtype(np.broadcast_to(np.reshape(masked_anchors[:, 0], (1, self.n_anchors, 1, 1)), output.shape[:4]))
        h_anchors = dtype(np.broadcast_to(np.reshape(masked_anchors[:, 1], (1, self.n_anchors, 1, 1)), output.shape[:4]))

        pred = output.clone(memory_format=torch.contiguous_format)  # clone() was contiguous in PyTorch 1.2
        pred[..., 0] += x_shift
        pred[..., 1] += y_shift
        pred[..., 2] = torch.exp(pred[..., 2]) * w_anchors
        pred[..., 3] = torch.exp(pred[..., 3]) * h_anchors
        pred = pred[..., :4].data

        # target assignment
        tgt_mask = torch.zeros(batchsize, self.n_anchors, fsize, fsize, 4 + self.n_classes).type(dtype)
        obj_mask = torch.ones(batchsize, self.n_anchors, fsize, fsize).type(dtype)
        tgt_scale = torch.zeros(batchsize, self.n_anchors, fsize, fsize, 2).type(dtype)
        target = torch.zeros(batchsize, self.n_anchors, fsize, fsize, n_ch).type(dtype)

        labels = labels.cpu().data
        nlabel = (labels.sum(dim=2) > 0).sum(dim=1)  # number of objects

        truth_x_all = labels[:, :, 1] * fsize
        truth_y_all = labels[:, :, 2] * fsize
        truth_w_all = labels[:, :, 3] * fsize
        truth_h_all = labels[:, :, 4] * fsize
        truth_i_all = truth_x_all.to(torch.int16).numpy()
        truth_j_all = truth_y_all.to(torch.int16).numpy()

        for b in range(batchsize):
            n = int(nlabel[b])
            if n == 0:
                continue
            truth_box = dtype(np.zeros((n, 4)))
            truth_box[:n, 2] = truth_w_all[b, :n]
            truth_box[:n, 3] = truth_h_all[b, :n]
            truth_i = truth_i_all[b, :n]
            truth_j = truth_j_all[b, :n]

            # calculate iou between truth and reference anchors
            anchor_ious_all = bboxes_iou(truth_box.cpu(), self.ref_anchors)
            best_n_all = np.argmax(anchor_ious_all, axis=1)
            best_n = best_n_all % 3
            best_n_mask = ((best_n_all == self.anch_mask[0]) | (best_n_all == self.anch_mask[1])
                           | (best_n_all == self.anch_mask[2]))

            truth_box[:n, 0] = truth_x_all[b, :n]
            truth_box[:n, 1] = truth_y_all[b, :n]

            pred_ious = bboxes_iou(pred[b].view(-1, 4), truth_box, xyxy=False)
            pred_best_iou, _ = pred_ious.max(dim=1)
            pred_best_iou = (pred_best_iou > self.ignore_thre)  # root-cause-alt
            pred_best_iou = pred_best_iou.view(pred[b].shape[:3])
            # set mask to zero (ignore) if pred matches truth
            obj_mask[b] = 1 - pred_best_iou  # root-cause  # fails-here

            if sum(best_n_mask) == 0:
                continue

            for ti in range(best_n.shape[0]):
                if best_n_mask[ti] == 1:
                    i, j = truth_i[ti], truth_j[ti]
                    a = best_n[ti]
                    obj_mask[b, a, j, i] = 1
                    tgt_mask[b, a, j, i, :] = 1
                    target[b, a, j, i, 0] = truth_x_all[b, ti] - truth_x_all[b, ti].to(torch.int16).to(torch.float)
                    target[b, a, j, i, 1] = truth_y_all[b, ti] - truth_y_all[b, ti].to(torch.int16).to(torch.float)
                    target[b, a, j, i, 2] = torch.log(
                        truth_w_all[b, ti] / torch.Tensor(self.masked_anchors)[best_n[ti], 0] + 1e-16)
                    target[b, a, j, i, 3] = torch.log(
                        truth_h_all[b, ti] / torch.Tensor(self.masked_anchors)[best_n[ti], 1] + 1e-16)
                    target[b, a, j, i, 4] = 1
                    target[b, a, j, i, 5 + labels[b, ti, 0].to(torch.int16).numpy()] = 1
                    tgt_scale[b, a, j, i, :] = torch.sqrt(2 - truth_w_all[b, ti] * truth_h_all[b, ti] / fsize / fsize)

        # loss calculation
        output[..., 4] *= obj_mask
        output[..., np.r_[0:4, 5:n_ch]] *= tgt_mask
        output[..., 2:4] *= tgt_scale
        target[..., 4] *= obj_mask
        target[..., np.r_[0:4, 5:n_ch]] *= tgt_mask
        target[..., 2:4] *= tgt_scale

        bceloss = nn.BCELoss(weight=tgt_scale * tgt_scale, reduction="sum")  # weighted BCEloss
        loss_xy = bceloss(output[..., :2], target[..., :2])
        loss_wh = self.l2_loss(output[..., 2:4], target[..., 2:4]) / 2
        loss_obj = self.bce_loss(output[..., 4], target[..., 4])
        loss_cls = self.bce_loss(output[..., 5:], target[..., 5:])
        loss_l2 = self.l2_loss(output, target)
        loss = loss_xy + loss_wh + loss_obj + loss_cls
        return loss, loss_xy, loss_wh, loss_obj, loss_cls, loss_l2


class YOLOv3Lite(nn.Module):
    """A small strided backbone standing in for DarkNet53, followed by the stride-32 YOLO layer."""

    def __init__(self, config_model, ignore_thre=0.7):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 32, 3, stride=4, padding=1), nn.LeakyReLU(0.1),
                                      nn.Conv2d(32, 64, 3, stride=8, padding=1), nn.LeakyReLU(0.1))
        self.yolo = YOLOLayer(config_model, layer_no=0, in_ch=64, ignore_thre=ignore_thre)

    def forward(self, x, targets=None):
        loss, loss_xy, loss_wh, loss_obj, loss_cls, loss_l2 = self.yolo(self.backbone(x), targets)
        self.loss_dict = {"xy": loss_xy.item(), "wh": loss_wh.item(), "conf": loss_obj.item(),
                          "cls": loss_cls.item(), "l2": loss_l2.item()}
        return loss


config_model = {
    "ANCHORS": [[10, 13], [16, 30], [33, 23], [30, 61], [62, 45], [59, 119], [116, 90], [156, 198], [373, 326]],
    "ANCH_MASK": [[6, 7, 8], [3, 4, 5], [0, 1, 2]],
    "N_CLASSES": 80,
}


def coco_batch(batchsize=2, imgsize=416, maxlabels=50):
    """COCODataset-style batch: images and (batchsize, 50, 5) labels [class, xc, yc, w, h] in 0..1, zero-padded."""
    imgs = torch.rand(batchsize, 3, imgsize, imgsize)
    targets = np.zeros((batchsize, maxlabels, 5), dtype=np.float64)
    for b in range(batchsize):
        n = np.random.randint(2, 6)
        targets[b, :n, 0] = np.random.randint(0, 80, size=n)
        targets[b, :n, 1:3] = np.random.uniform(0.2, 0.8, size=(n, 2))
        targets[b, :n, 3:5] = np.random.uniform(0.2, 0.6, size=(n, 2))
    return imgs, torch.from_numpy(targets)


dtype = torch.FloatTensor
model = YOLOv3Lite(config_model, ignore_thre=0.7)
model.train()
optimizer = torch.optim.SGD(model.parameters(), lr=0.001 / 8, momentum=0.9)
for iter_i in range(3):
    optimizer.zero_grad()
    for inner_iter_i in range(2):  # subdivision loop
        imgs, targets = coco_batch()
        imgs = imgs.type(dtype)
        targets = targets.type(dtype)
        loss = model(imgs, targets)
        loss.backward()
    optimizer.step()
    print("[Iter %d] [Losses: xy %f, wh %f, conf %f, cls %f, total %f]"
          % (iter_i, model.loss_dict["xy"], model.loss_dict["wh"], model.loss_dict["conf"], model.loss_dict["cls"],
             model.loss_dict["l2"]))

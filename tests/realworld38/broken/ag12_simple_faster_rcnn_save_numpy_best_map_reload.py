"""Faster R-CNN training on VOC (chenyuntc/simple-faster-rcnn-pytorch: train.py evaluates after every epoch with eval_detection_voc, whose 'map' is np.nanmean(ap), keeps best_map = eval_result['map'] and calls trainer.save(best_map=best_map); trainer.FasterRCNNTrainer.save stores the kwargs under save_dict['other_info'] next to the model / config / vis state dicts, and at epoch 9 train.py reloads the best checkpoint with trainer.load(best_path) before decaying the learning rate): under torch >= 2.6 the NumPy float64 best_map inside 'other_info' makes the bare t.load(path) of load() fail (weights_only=True)
source: https://github.com/chenyuntc/simple-faster-rcnn-pytorch/blob/367db367834efd8a2bc58ee0023b2b628a0e474d/trainer.py
reported-error: (none filed; the repository predates torch 2.6's weights_only default. The VGG16 Faster R-CNN, its RPN and RoI head are replaced by a one-stage stand-in over a fixed grid with the same predict / get_optimizer / scale_lr interface; .cuda() calls replaced by a device; visdom by a recorder with the same state_dict)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray.scalar was not an allowed global by default. ... at line 456
root-cause: line 435
expect: DG011
"""
from __future__ import absolute_import
import os
import tempfile
import time
from collections import namedtuple, defaultdict
from pprint import pprint

import numpy as np
import torch as t
from torch import nn
from torch.nn import functional as F
from torch.utils import data as data_

device = t.device('cuda' if t.cuda.is_available() else 'cpu')


# ---- utils/config.py
class Config:
    # data
    voc_data_dir = tempfile.mkdtemp()
    min_size = 64  # image resize
    max_size = 64  # image resize
    num_workers = 0
    test_num_workers = 0

    # sigma for l1_smooth_loss
    rpn_sigma = 3.
    roi_sigma = 1.

    # param for optimizer
    weight_decay = 0.0005
    lr_decay = 0.1  # 1e-3 -> 1e-4
    lr = 1e-3

    # visualization
    env = 'faster-rcnn'  # visdom env
    port = 8097
    plot_every = 40  # vis every N iter

    # preset
    data = 'voc'
    pretrained_model = 'vgg16'

    # training
    epoch = 14

    use_adam = False  # Use Adam optimizer
    use_chainer = False  # try match everything as chainer
    use_drop = False  # use dropout in RoIHead
    # debug
    debug_file = '/tmp/debugf'

    test_num = 10000
    # model
    load_path = None

    def _parse(self, kwargs):
        state_dict = self._state_dict()
        for k, v in kwargs.items():
            if k not in state_dict:
                raise ValueError('UnKnown Option: "--%s"' % k)
            setattr(self, k, v)

        print('======user config========')
        pprint(self._state_dict())
        print('==========end============')

    def _state_dict(self):
        return {k: getattr(self, k) for k, _ in Config.__dict__.items()
                if not k.startswith('_')}


opt = Config()


# ---- utils/array_tool.py
def tonumpy(data):
    if isinstance(data, np.ndarray):
        return data
    if isinstance(data, t.Tensor):
        return data.detach().cpu().numpy()


def totensor(data, cuda=True):
    if isinstance(data, np.ndarray):
        tensor = t.from_numpy(data)
    if isinstance(data, t.Tensor):
        tensor = data.detach()
    if cuda:
        tensor = tensor.to(device)
    return tensor


def scalar(data):
    if isinstance(data, np.ndarray):
        return data.reshape(1)[0]
    if isinstance(data, t.Tensor):
        return data.item()


# ---- utils/vis_tool.py (visdom replaced by a recorder with the same state_dict)
class Visualizer(object):
    def __init__(self, env='default', **kwargs):
        self._vis_kw = kwargs
        self.env = env
        self.index = {}
        self.log_text = ''

    def plot(self, name, y, **kwargs):
        self.index[name] = self.index.get(name, 0) + 1

    def log(self, info, win='log_text'):
        self.log_text += ('[{time}] {info} <br>'.format(time=time.strftime('%m%d_%H%M%S'), info=info))

    def save(self, envs):
        pass

    def state_dict(self):
        return {
            'index': self.index,
            'vis_kw': self._vis_kw,
            'log_text': self.log_text,
            'env': self.env
        }


# ---- model/utils/bbox_tools.py
def bbox_iou(bbox_a, bbox_b):
    if bbox_a.shape[1] != 4 or bbox_b.shape[1] != 4:
        raise IndexError
    tl = np.maximum(bbox_a[:, None, :2], bbox_b[:, :2])
    br = np.minimum(bbox_a[:, None, 2:], bbox_b[:, 2:])
    area_i = np.prod(br - tl, axis=2) * (tl < br).all(axis=2)
    area_a = np.prod(bbox_a[:, 2:] - bbox_a[:, :2], axis=1)
    area_b = np.prod(bbox_b[:, 2:] - bbox_b[:, :2], axis=1)
    return area_i / (area_a[:, None] + area_b - area_i)


# ---- utils/eval_tool.py
def eval_detection_voc(
        pred_bboxes, pred_labels, pred_scores, gt_bboxes, gt_labels,
        gt_difficults=None,
        iou_thresh=0.5, use_07_metric=False):
    prec, rec = calc_detection_voc_prec_rec(
        pred_bboxes, pred_labels, pred_scores,
        gt_bboxes, gt_labels, gt_difficults,
        iou_thresh=iou_thresh)
    ap = calc_detection_voc_ap(prec, rec, use_07_metric=use_07_metric)
    return {'ap': ap, 'map': np.nanmean(ap)}


def calc_detection_voc_prec_rec(pred_bboxes, pred_labels, pred_scores, gt_bboxes, gt_labels,
                                gt_difficults=None, iou_thresh=0.5):
    n_pos = defaultdict(int)
    score = defaultdict(list)
    match = defaultdict(list)
    for pred_bbox, pred_label, pred_score, gt_bbox, gt_label in zip(
            pred_bboxes, pred_labels, pred_scores, gt_bboxes, gt_labels):
        for l in np.unique(np.concatenate((pred_label, gt_label)).astype(int)):
            pred_mask_l = pred_label == l
            pred_bbox_l = pred_bbox[pred_mask_l]
            pred_score_l = pred_score[pred_mask_l]
            order = pred_score_l.argsort()[::-1]
            pred_bbox_l = pred_bbox_l[order]
            pred_score_l = pred_score_l[order]

            gt_bbox_l = gt_bbox[gt_label == l]
            n_pos[l] += gt_bbox_l.shape[0]
            score[l].extend(pred_score_l)
            if len(pred_bbox_l) == 0:
                continue
            if len(gt_bbox_l) == 0:
                match[l].extend((0,) * pred_bbox_l.shape[0])
                continue
            iou = bbox_iou(pred_bbox_l, gt_bbox_l)
            gt_index = iou.argmax(axis=1)
            gt_index[iou.max(axis=1) < iou_thresh] = -1
            selec = np.zeros(gt_bbox_l.shape[0], dtype=bool)
            for gt_idx in gt_index:
                if gt_idx >= 0:
                    match[l].append(0 if selec[gt_idx] else 1)
                    selec[gt_idx] = True
                else:
                    match[l].append(0)

    n_fg_class = max(n_pos.keys()) + 1
    prec = [None] * n_fg_class
    rec = [None] * n_fg_class
    for l in n_pos.keys():
        score_l = np.array(score[l])
        match_l = np.array(match[l], dtype=np.int8)
        order = score_l.argsort()[::-1]
        match_l = match_l[order]
        tp = np.cumsum(match_l == 1)
        fp = np.cumsum(match_l == 0)
        prec[l] = tp / (fp + tp)
        if n_pos[l] > 0:
            rec[l] = tp / n_pos[l]
    return prec, rec


def calc_detection_voc_ap(prec, rec, use_07_metric=False):
    n_fg_class = len(prec)
    ap = np.empty(n_fg_class)
    for l in range(n_fg_class):
        if prec[l] is None or rec[l] is None:
            ap[l] = np.nan
            continue
        if use_07_metric:
            # 11 point metric
            ap[l] = 0
            for t_ in np.arange(0., 1.1, 0.1):
                if np.sum(rec[l] >= t_) == 0:
                    p = 0
                else:
                    p = np.max(np.nan_to_num(prec[l])[rec[l] >= t_])
                ap[l] += p / 11
        else:
            mpre = np.concatenate(([0], np.nan_to_num(prec[l]), [0]))
            mrec = np.concatenate(([0], rec[l], [1]))
            mpre = np.maximum.accumulate(mpre[::-1])[::-1]
            i = np.where(mrec[1:] != mrec[:-1])[0]
            ap[l] = np.sum((mrec[i + 1] - mrec[i]) * mpre[i + 1])
    return ap


# ---- data/dataset.py (VOC2007 replaced by synthetic 64x64 images with grid-aligned boxes)
VOC_BBOX_LABEL_NAMES = ('aeroplane', 'bicycle', 'bird', 'boat', 'bottle', 'bus', 'car', 'cat', 'chair', 'cow',
                        'diningtable', 'dog', 'horse', 'motorbike', 'person', 'pottedplant', 'sheep', 'sofa',
                        'train', 'tvmonitor')


def make_voc_like(n, seed):
    rng = np.random.RandomState(seed)
    items = []
    for _ in range(n):
        img = rng.rand(3, 64, 64).astype(np.float32) * 0.1
        cells = rng.choice(16, size=2, replace=False)
        bbox, label = [], []
        for c in cells:
            y, x = (c // 4) * 16, (c % 4) * 16
            lab = rng.randint(3)
            img[lab, y:y + 16, x:x + 16] += 1.0
            bbox.append([y, x, y + 16, x + 16])
            label.append(lab)
        items.append((img, np.array(bbox, dtype=np.float32), np.array(label, dtype=np.int32)))
    return items


class Dataset:
    def __init__(self, opt):
        self.opt = opt
        self.items = make_voc_like(8, 0)

    def __getitem__(self, idx):
        img, bbox, label = self.items[idx]
        scale = 1.
        return img.copy(), bbox.copy(), label.copy(), scale

    def __len__(self):
        return len(self.items)


class TestDataset:
    def __init__(self, opt, split='test'):
        self.opt = opt
        self.items = make_voc_like(4, 1)

    def __getitem__(self, idx):
        img, bbox, label = self.items[idx]
        difficult = np.zeros(len(label), dtype=np.uint8)
        return img, img.shape[1:], bbox, label, difficult

    def __len__(self):
        return len(self.items)


# ---- model/faster_rcnn_vgg16.py (stand-in: a conv extractor of stride 16 and a per-cell class / box head)
class FasterRCNNVGG16(nn.Module):
    feat_stride = 16

    def __init__(self, n_fg_class=20):
        super(FasterRCNNVGG16, self).__init__()
        self.extractor = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1), nn.ReLU(), nn.Conv2d(32, 64, 3, 2, 1), nn.ReLU(),
                                       nn.Conv2d(64, 64, 3, 2, 1), nn.ReLU(), nn.Conv2d(64, 64, 3, 2, 1), nn.ReLU())
        self.n_class = n_fg_class + 1
        self.score = nn.Conv2d(64, self.n_class, 1)
        self.loc = nn.Conv2d(64, 4, 1)
        self.loc_normalize_mean = (0., 0., 0., 0.)
        self.loc_normalize_std = (0.1, 0.1, 0.2, 0.2)
        self.optimizer = self.get_optimizer()

    def anchors(self, H, W):
        ys, xs = np.meshgrid(np.arange(0, H, self.feat_stride), np.arange(0, W, self.feat_stride), indexing='ij')
        ys, xs = ys.ravel(), xs.ravel()
        return np.stack([ys, xs, ys + self.feat_stride, xs + self.feat_stride], axis=1).astype(np.float32)

    def forward(self, x):
        h = self.extractor(x)
        n = x.shape[0]
        scores = self.score(h).permute(0, 2, 3, 1).reshape(n, -1, self.n_class)
        locs = self.loc(h).permute(0, 2, 3, 1).reshape(n, -1, 4)
        return locs, scores

    def predict(self, imgs, sizes=None, visualize=False):
        self.eval()
        bboxes, labels, scores = list(), list(), list()
        with t.no_grad():
            for img in imgs:
                img = totensor(img[None]).float()
                _, roi_scores = self(img)
                prob = F.softmax(roi_scores[0], dim=1)[:, 1:]
                score, label = prob.max(dim=1)
                keep = tonumpy(score > 0.05)
                anchor = self.anchors(img.shape[2], img.shape[3])
                bboxes.append(anchor[keep])
                labels.append(tonumpy(label)[keep])
                scores.append(tonumpy(score)[keep])
        self.train()
        return bboxes, labels, scores

    def get_optimizer(self):
        lr = opt.lr
        params = []
        for key, value in dict(self.named_parameters()).items():
            if value.requires_grad:
                if 'bias' in key:
                    params += [{'params': [value], 'lr': lr * 2, 'weight_decay': 0}]
                else:
                    params += [{'params': [value], 'lr': lr, 'weight_decay': opt.weight_decay}]
        if opt.use_adam:
            self.optimizer = t.optim.Adam(params)
        else:
            self.optimizer = t.optim.SGD(params, momentum=0.9)
        return self.optimizer

    def scale_lr(self, decay=0.1):
        for param_group in self.optimizer.param_groups:
            param_group['lr'] *= decay
        return self.optimizer


# ---- trainer.py
LossTuple = namedtuple('LossTuple',
                       ['rpn_loc_loss',
                        'rpn_cls_loss',
                        'roi_loc_loss',
                        'roi_cls_loss',
                        'total_loss'
                        ])


class AverageValueMeter(object):
    def __init__(self):
        self.reset()

    def add(self, value):
        self.sum += value
        self.n += 1

    def value(self):
        return (self.sum / max(self.n, 1), 0.)

    def reset(self):
        self.sum, self.n = 0., 0


class FasterRCNNTrainer(nn.Module):
    def __init__(self, faster_rcnn):
        super(FasterRCNNTrainer, self).__init__()

        self.faster_rcnn = faster_rcnn
        self.rpn_sigma = opt.rpn_sigma
        self.roi_sigma = opt.roi_sigma

        self.loc_normalize_mean = faster_rcnn.loc_normalize_mean
        self.loc_normalize_std = faster_rcnn.loc_normalize_std

        self.optimizer = self.faster_rcnn.get_optimizer()
        # visdom wrapper
        self.vis = Visualizer(env=opt.env)

        self.meters = {k: AverageValueMeter() for k in LossTuple._fields}  # average loss

    def forward(self, imgs, bboxes, labels, scale):
        n = bboxes.shape[0]
        if n != 1:
            raise ValueError('Currently only batch size 1 is supported.')

        _, _, H, W = imgs.shape
        locs, scores = self.faster_rcnn(imgs)
        anchor = self.faster_rcnn.anchors(H, W)
        bbox = tonumpy(bboxes[0])
        label = tonumpy(labels[0])

        # assign each grid cell the class of the ground-truth box it overlaps (0: background)
        iou = bbox_iou(anchor, bbox)
        gt_label = np.where(iou.max(axis=1) >= 0.5, label[iou.argmax(axis=1)] + 1, 0)
        gt_label = totensor(gt_label).long()
        gt_loc = totensor(np.zeros((len(anchor), 4), dtype=np.float32))

        roi_cls_loss = nn.CrossEntropyLoss()(scores[0], gt_label)
        pos = gt_label > 0
        roi_loc_loss = F.smooth_l1_loss(locs[0][pos], gt_loc[pos]) if pos.any() else locs.sum() * 0
        rpn_loc_loss = rpn_cls_loss = roi_cls_loss * 0

        losses = [rpn_loc_loss, rpn_cls_loss, roi_loc_loss, roi_cls_loss]
        losses = losses + [sum(losses)]

        return LossTuple(*losses)

    def train_step(self, imgs, bboxes, labels, scale):
        self.optimizer.zero_grad()
        losses = self.forward(imgs, bboxes, labels, scale)
        losses.total_loss.backward()
        self.optimizer.step()
        self.update_meters(losses)
        return losses

    def save(self, save_optimizer=False, save_path=None, **kwargs):
        """serialize models include optimizer and other info
        return path where the model-file is stored.
        """
        save_dict = dict()

        save_dict['model'] = self.faster_rcnn.state_dict()
        save_dict['config'] = opt._state_dict()
        save_dict['other_info'] = kwargs  # root-cause
        save_dict['vis_info'] = self.vis.state_dict()

        if save_optimizer:
            save_dict['optimizer'] = self.optimizer.state_dict()

        if save_path is None:
            timestr = time.strftime('%m%d%H%M')
            save_path = os.path.join(opt.voc_data_dir, 'checkpoints/fasterrcnn_%s' % timestr)
            for k_, v_ in kwargs.items():
                save_path += '_%s' % v_

        save_dir = os.path.dirname(save_path)
        if not os.path.exists(save_dir):
            os.makedirs(save_dir)

        t.save(save_dict, save_path)
        self.vis.save([self.vis.env])
        return save_path

    def load(self, path, load_optimizer=True, parse_opt=False, ):
        state_dict = t.load(path)  # fails-here
        if 'model' in state_dict:
            self.faster_rcnn.load_state_dict(state_dict['model'])
        else:  # legacy way, for backward compatibility
            self.faster_rcnn.load_state_dict(state_dict)
            return self
        if parse_opt:
            opt._parse(state_dict['config'])
        if 'optimizer' in state_dict and load_optimizer:
            self.optimizer.load_state_dict(state_dict['optimizer'])
        return self

    def update_meters(self, losses):
        loss_d = {k: scalar(v) for k, v in losses._asdict().items()}
        for key, meter in self.meters.items():
            meter.add(loss_d[key])

    def reset_meters(self):
        for key, meter in self.meters.items():
            meter.reset()

    def get_meter_data(self):
        return {k: v.value()[0] for k, v in self.meters.items()}


# ---- train.py
def eval(dataloader, faster_rcnn, test_num=10000):
    pred_bboxes, pred_labels, pred_scores = list(), list(), list()
    gt_bboxes, gt_labels, gt_difficults = list(), list(), list()
    for ii, (imgs, sizes, gt_bboxes_, gt_labels_, gt_difficults_) in enumerate(dataloader):
        sizes = [sizes[0][0].item(), sizes[1][0].item()]
        pred_bboxes_, pred_labels_, pred_scores_ = faster_rcnn.predict(imgs, [sizes])
        gt_bboxes += list(gt_bboxes_.numpy())
        gt_labels += list(gt_labels_.numpy())
        gt_difficults += list(gt_difficults_.numpy())
        pred_bboxes += pred_bboxes_
        pred_labels += pred_labels_
        pred_scores += pred_scores_
        if ii == test_num: break

    result = eval_detection_voc(
        pred_bboxes, pred_labels, pred_scores,
        gt_bboxes, gt_labels, gt_difficults,
        use_07_metric=True)
    return result


def train(**kwargs):
    opt._parse(kwargs)

    dataset = Dataset(opt)
    print('load data')
    dataloader = data_.DataLoader(dataset,
                                  batch_size=1,
                                  shuffle=True,
                                  num_workers=opt.num_workers)
    testset = TestDataset(opt)
    test_dataloader = data_.DataLoader(testset,
                                       batch_size=1,
                                       num_workers=opt.test_num_workers,
                                       shuffle=False)
    faster_rcnn = FasterRCNNVGG16()
    print('model construct completed')
    trainer = FasterRCNNTrainer(faster_rcnn).to(device)
    if opt.load_path:
        trainer.load(opt.load_path)
        print('load pretrained model from %s' % opt.load_path)
    best_map = 0
    lr_ = opt.lr
    for epoch in range(opt.epoch):
        trainer.reset_meters()
        for ii, (img, bbox_, label_, scale) in enumerate(dataloader):
            scale = scalar(scale)
            img, bbox, label = img.to(device).float(), bbox_.to(device), label_.to(device)
            trainer.train_step(img, bbox, label, scale)

        eval_result = eval(test_dataloader, faster_rcnn, test_num=opt.test_num)
        trainer.vis.plot('test_map', eval_result['map'])
        lr_ = trainer.faster_rcnn.optimizer.param_groups[0]['lr']
        log_info = 'lr:{}, map:{},loss:{}'.format(str(lr_),
                                                  str(eval_result['map']),
                                                  str(trainer.get_meter_data()))
        trainer.vis.log(log_info)
        print('epoch {}: {}'.format(epoch, log_info))

        if eval_result['map'] > best_map:
            best_map = eval_result['map']
            best_path = trainer.save(best_map=best_map)
        if epoch == 9:
            trainer.load(best_path)
            trainer.faster_rcnn.scale_lr(opt.lr_decay)
            lr_ = lr_ * opt.lr_decay

        if epoch == 13:
            break


if __name__ == '__main__':
    t.manual_seed(0)
    train(epoch=11, lr=5e-2)

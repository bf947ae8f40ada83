"""Training YOLOX on a VOC-format dataset and exporting the best checkpoint (Megvii-BaseDetection/YOLOX: yolox/core/trainer.py's Trainer with evaluate_and_save_model / save_ckpt, yolox/data/datasets/voc.py's _do_python_eval returning np.mean(mAPs), tools/export_onnx.py loading best_ckpt.pth), YOLOX issue #1906: save_ckpt stores "curr_ap": ap, and the VOC evaluator's AP is a numpy.float64, so best_ckpt.pth holds a NumPy scalar that torch.load's weights_only=True default (PyTorch >= 2.6) refuses when the export tool loads it
source: https://github.com/Megvii-BaseDetection/YOLOX/issues/1906
reported-error: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray.scalar was not an allowed global by default. (loading best_ckpt.pth with plain torch.load(ckpt_file, map_location="cpu") in tools/export_onnx.py on PyTorch 2.6; latest_ckpt.pth, saved without ap, loads)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray.scalar was not an allowed global by default. ... at line 146
root-cause: line 134
expect: DG011
"""
import argparse
import os
import shutil
import tempfile

import numpy as np

import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- yolox/models (reduced: a tiny backbone and a decoupled head predicting objectness + class per cell)
class TinyYOLOX(nn.Module):
    def __init__(self, num_classes=3, width=16):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, width, 3, 2, 1), nn.BatchNorm2d(width), nn.SiLU(),
            nn.Conv2d(width, width * 2, 3, 2, 1), nn.BatchNorm2d(width * 2), nn.SiLU(),
            nn.Conv2d(width * 2, width * 2, 3, 2, 1), nn.BatchNorm2d(width * 2), nn.SiLU())
        self.obj_pred = nn.Conv2d(width * 2, 1, 1)
        self.cls_pred = nn.Conv2d(width * 2, num_classes, 1)

    def forward(self, x, targets=None):
        feat = self.backbone(x)
        obj, cls = self.obj_pred(feat), self.cls_pred(feat)
        if targets is None:
            return torch.cat([obj.sigmoid(), cls.sigmoid()], dim=1)
        obj_t, cls_t = targets
        loss_obj = F.binary_cross_entropy_with_logits(obj.squeeze(1), obj_t)
        loss_cls = F.cross_entropy(cls, cls_t, ignore_index=-1)
        return {"total_loss": loss_obj + loss_cls, "obj_loss": loss_obj, "cls_loss": loss_cls}


# ---- yolox/data/datasets/voc.py (the evaluation part: voc_ap and _do_python_eval)
def voc_ap(rec, prec):
    mrec = np.concatenate(([0.0], rec, [1.0]))
    mpre = np.concatenate(([0.0], prec, [0.0]))
    for i in range(mpre.size - 1, 0, -1):
        mpre[i - 1] = np.maximum(mpre[i - 1], mpre[i])
    i = np.where(mrec[1:] != mrec[:-1])[0]
    return np.sum((mrec[i + 1] - mrec[i]) * mpre[i + 1])


def _do_python_eval(scores, gts, num_classes):
    aps = []
    for c in range(num_classes):
        s, g = scores[:, c].ravel(), (gts == c).ravel()
        order = np.argsort(-s)
        tp = g[order].astype(np.float64)
        fp = 1.0 - tp
        tp, fp = np.cumsum(tp), np.cumsum(fp)
        rec = tp / max(g.sum(), 1)
        prec = tp / np.maximum(tp + fp, np.finfo(np.float64).eps)
        aps.append(voc_ap(rec, prec))
    mAPs = [np.mean(aps), aps[0]]
    return np.mean(mAPs), mAPs[0]


def make_voc_batches(n_batches, batch_size, num_classes, seed):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n_batches):
        imgs = rng.normal(0, 1, (batch_size, 3, 64, 64)).astype(np.float32)
        obj = (rng.uniform(size=(batch_size, 8, 8)) < 0.2).astype(np.float32)
        cls = np.where(obj > 0, rng.integers(0, num_classes, (batch_size, 8, 8)), -1)
        out.append((torch.from_numpy(imgs), torch.from_numpy(obj), torch.from_numpy(cls).long()))
    return out


# ---- yolox/core/trainer.py (reduced)
class Trainer:
    def __init__(self, args, num_classes=3):
        self.args = args
        self.max_epoch = args.max_epoch
        self.file_name = os.path.join(args.output_dir, args.experiment_name)
        os.makedirs(self.file_name, exist_ok=True)
        self.model = TinyYOLOX(num_classes)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.01, momentum=0.9, nesterov=True)
        self.num_classes = num_classes
        self.best_ap = 0
        self.train_loader = make_voc_batches(4, 8, num_classes, 0)
        self.val_loader = make_voc_batches(2, 8, num_classes, 1)

    def train(self):
        for self.epoch in range(self.max_epoch):
            self.model.train()
            for imgs, obj_t, cls_t in self.train_loader:
                outputs = self.model(imgs, (obj_t, cls_t))
                loss = outputs["total_loss"]
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            print("epoch: {}/{}, total_loss: {:.3f}".format(self.epoch + 1, self.max_epoch, loss.item()))
            self.after_epoch()

    def after_epoch(self):
        self.save_ckpt(ckpt_name="latest")
        if (self.epoch + 1) % self.args.eval_interval == 0:
            self.evaluate_and_save_model()

    def evaluate(self):
        self.model.eval()
        scores, gts = [], []
        with torch.no_grad():
            for imgs, obj_t, cls_t in self.val_loader:
                out = self.model(imgs)
                scores.append((out[:, :1] * out[:, 1:]).permute(0, 2, 3, 1).reshape(-1, self.num_classes).numpy())
                gts.append(cls_t.reshape(-1).numpy())
        return _do_python_eval(np.concatenate(scores), np.concatenate(gts), self.num_classes)

    def evaluate_and_save_model(self):
        ap50_95, ap50 = self.evaluate()
        update_best_ckpt = ap50_95 > self.best_ap
        self.best_ap = max(self.best_ap, ap50_95)
        print("Average forward time ... AP50: {:.4f} AP50_95: {:.4f}".format(ap50, ap50_95))
        self.save_ckpt("last_epoch", update_best_ckpt, ap=ap50_95)

    def save_ckpt(self, ckpt_name, update_best_ckpt=False, ap=None):
        save_model = self.model
        print("Save weights to {}".format(self.file_name))
        ckpt_state = {
            "start_epoch": self.epoch + 1,
            "model": save_model.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "best_ap": float(self.best_ap),
            "curr_ap": ap,  # root-cause
        }
        filename = os.path.join(self.file_name, ckpt_name + "_ckpt.pth")
        torch.save(ckpt_state, filename)
        if update_best_ckpt:
            shutil.copyfile(filename, os.path.join(self.file_name, "best_ckpt.pth"))


# ---- tools/export_onnx.py (reduced: load the checkpoint, then trace instead of torch.onnx.export)
def export_main(args):
    model = TinyYOLOX(3)
    ckpt_file = args.ckpt if args.ckpt else os.path.join(args.output_dir, args.experiment_name, "best_ckpt.pth")
    ckpt = torch.load(ckpt_file, map_location="cpu")  # fails-here
    if "model" in ckpt:
        ckpt = ckpt["model"]
    model.load_state_dict(ckpt)
    model.eval()
    dummy_input = torch.randn(args.batch_size, 3, 64, 64)
    traced = torch.jit.trace(model, dummy_input)
    print("generated traced model, output", tuple(traced(dummy_input).shape))


if __name__ == "__main__":
    parser = argparse.ArgumentParser("YOLOX train + export")
    parser.add_argument("-expn", "--experiment-name", type=str, default="yolox_voc_s")
    parser.add_argument("--output-dir", type=str, default="./YOLOX_outputs")
    parser.add_argument("--max-epoch", type=int, default=3)
    parser.add_argument("--eval-interval", type=int, default=1)
    parser.add_argument("-c", "--ckpt", default=None, type=str)
    parser.add_argument("--batch-size", type=int, default=1)
    args = parser.parse_args(["--output-dir", tempfile.mkdtemp()])
    torch.manual_seed(0)
    Trainer(args).train()          # python tools/train.py -f exps/example/yolox_voc/yolox_voc_s.py ...
    export_main(args)              # python tools/export_onnx.py -f ... -c YOLOX_outputs/yolox_voc_s/best_ckpt.pth

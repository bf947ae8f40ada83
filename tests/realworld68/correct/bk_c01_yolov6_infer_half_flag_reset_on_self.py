"""The YOLOv6-style CPU inference of bk01 (meituan/YOLOv6 #418) with the fix of commit 24f4fb2: Inferer.__init__ stores self.half = half and, on the CPU, resets self.half = False, so precess_image builds float32 images for the float32 model; the uint8 frames turned into tensors with torch.from_numpy and cast with .float(), the fp16 state dict loaded into float32 parameters and the int64 normalisation gain dividing float boxes are kept
source: https://github.com/meituan/YOLOv6/issues/418
reported-error: (none filed; the fixed situation of bk01)
outcome: ok
root-cause: -
expect: none
"""
import argparse
import math
import os
import os.path as osp
import tempfile

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)


class RepVGGBlock(nn.Module):
    """3x3 conv + 1x1 conv branches during training, one fused 3x3 conv after switch_to_deploy()."""

    def __init__(self, cin, cout, stride=1):
        super().__init__()
        self.deploy = False
        self.rbr_dense = nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout))
        self.rbr_1x1 = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, 0, bias=False), nn.BatchNorm2d(cout))
        self.act = nn.ReLU()

    def forward(self, x):
        if self.deploy:
            return self.act(self.rbr_reparam(x))
        return self.act(self.rbr_dense(x) + self.rbr_1x1(x))

    @staticmethod
    def _fuse(branch):
        conv, bn = branch
        std = (bn.running_var + bn.eps).sqrt()
        return conv.weight * (bn.weight / std).reshape(-1, 1, 1, 1), bn.bias - bn.running_mean * bn.weight / std

    def switch_to_deploy(self):
        k3, b3 = self._fuse(self.rbr_dense)
        k1, b1 = self._fuse(self.rbr_1x1)
        conv = self.rbr_dense[0]
        self.rbr_reparam = nn.Conv2d(conv.in_channels, conv.out_channels, 3, conv.stride, 1, bias=True)
        self.rbr_reparam.weight.data = k3 + nn.functional.pad(k1, [1, 1, 1, 1])
        self.rbr_reparam.bias.data = b3 + b1
        del self.rbr_dense, self.rbr_1x1
        self.deploy = True


class TinyYOLOv6(nn.Module):
    """EfficientRep-like backbone (RepVGG blocks) and a decoupled head emitting (x, y, w, h, obj, cls...) per cell."""

    def __init__(self, nc=3):
        super().__init__()
        self.stride = torch.tensor([8.0])
        self.backbone = nn.Sequential(RepVGGBlock(3, 8, 2), RepVGGBlock(8, 16, 2), RepVGGBlock(16, 16, 2))
        self.head = nn.Conv2d(16, 5 + nc, 1)

    def forward(self, x):
        p = self.head(self.backbone(x))
        b, c, h, w = p.shape
        p = p.permute(0, 2, 3, 1).reshape(b, h * w, c)
        gy, gx = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")
        grid = torch.stack((gx, gy), -1).reshape(1, h * w, 2).to(p.dtype)
        xy = (p[..., :2].sigmoid() + grid) * self.stride
        wh = p[..., 2:4].exp() * self.stride
        return torch.cat((xy, wh, p[..., 4:].sigmoid()), -1)


class DetectBackend(nn.Module):
    def __init__(self, weights, device):
        super().__init__()
        ckpt = torch.load(weights, map_location=device)  # {"model": fp16 state dict}, as released checkpoints
        self.model = TinyYOLOv6()
        self.model.load_state_dict(ckpt["model"])
        self.model.float().eval().to(device)  # (upstream: load_checkpoint(weights, map_location=device) puts the model there)
        self.stride = int(self.model.stride.max())

    def forward(self, im):
        return self.model(im)


def letterbox(im, new_shape, color=114, stride=32):
    h, w = im.shape[:2]
    r = min(new_shape[0] / h, new_shape[1] / w)
    nh, nw = int(round(h * r)), int(round(w * r))
    ys = (np.arange(nh) / r).astype(np.int64).clip(0, h - 1)
    xs = (np.arange(nw) / r).astype(np.int64).clip(0, w - 1)
    resized = im[ys][:, xs]
    out = np.full((new_shape[0], new_shape[1], 3), color, dtype=np.uint8)
    top, left = (new_shape[0] - nh) // 2, (new_shape[1] - nw) // 2
    out[top:top + nh, left:left + nw] = resized
    return out, r, (left, top)


class LoadData:
    def __init__(self, path):
        self.files = sorted(osp.join(path, f) for f in os.listdir(path) if f.endswith(".npy"))
        self.type = "image"

    def __iter__(self):
        for f in self.files:
            yield np.load(f), f, None


def non_max_suppression(pred, conf_thres, iou_thres, max_det=1000):
    out = []
    for x in pred:
        x = x.float()
        scores, cls = (x[:, 5:] * x[:, 4:5]).max(1)
        keep = scores > conf_thres
        boxes = torch.cat((x[keep, :2] - x[keep, 2:4] / 2, x[keep, :2] + x[keep, 2:4] / 2), 1)
        out.append(torch.cat((boxes, scores[keep, None], cls[keep, None].float()), 1)[:max_det])
    return out


class Inferer:
    def __init__(self, source, weights, device, img_size, half):

        self.__dict__.update(locals())

        # Init model
        self.device = device
        self.img_size = img_size
        cuda = self.device != 'cpu' and torch.cuda.is_available()
        self.device = torch.device(f'cuda:{device}' if cuda else 'cpu')
        self.model = DetectBackend(weights, device=self.device)
        self.stride = self.model.stride
        self.img_size = self.check_img_size(self.img_size, s=self.stride)
        self.half = half

        # Half precision
        if self.half & (self.device.type != 'cpu'):
            self.model.model.half()
        else:
            self.model.model.float()
            self.half = False

        if self.device.type != 'cpu':
            self.model(torch.zeros(1, 3, *self.img_size).to(self.device).type_as(next(self.model.model.parameters())))  # warmup

        # Load data
        self.files = LoadData(source)
        self.source = source

        # Switch model to deploy status
        self.model_switch(self.model.model, self.img_size)

    def model_switch(self, model, img_size):
        for layer in model.modules():
            if isinstance(layer, RepVGGBlock):
                layer.switch_to_deploy()
        print("Switch model to deploy modality.")

    @torch.no_grad()
    def infer(self, conf_thres, iou_thres, max_det):
        results = {}
        for img_src, img_path, vid_cap in self.files:
            img, img_src = self.precess_image(img_src, self.img_size, self.stride, self.half)
            img = img.to(self.device)
            if len(img.shape) == 3:
                img = img[None]
            pred_results = self.model(img)
            det = non_max_suppression(pred_results, conf_thres, iou_thres, max_det=max_det)[0]
            gn = torch.tensor(img_src.shape)[[1, 0, 1, 0]]  # normalization gain whwh
            results[osp.basename(img_path)] = (det[:, :4] / gn).tolist()
        return results

    @staticmethod
    def precess_image(img_src, img_size, stride, half):
        image = letterbox(img_src, img_size, stride=stride)[0]
        image = image.transpose((2, 0, 1))[::-1]  # HWC to CHW, BGR to RGB
        image = torch.from_numpy(np.ascontiguousarray(image))
        image = image.half() if half else image.float()
        image /= 255
        return image, img_src

    def check_img_size(self, img_size, s=32, floor=0):
        new_size = max(math.ceil(img_size / s) * s, floor)
        return [new_size] * 2


def get_args_parser():
    parser = argparse.ArgumentParser(description='YOLOv6 PyTorch Inference.')
    parser.add_argument('--weights', type=str, default=None)
    parser.add_argument('--source', type=str, default=None)
    parser.add_argument('--img-size', type=int, default=64)
    parser.add_argument('--conf-thres', type=float, default=0.25)
    parser.add_argument('--iou-thres', type=float, default=0.45)
    parser.add_argument('--max-det', type=int, default=1000)
    parser.add_argument('--device', default='cpu', help='device to run our model i.e. 0 or 0,1,2,3 or cpu.')
    parser.add_argument('--half', action='store_true', default=True, help='whether to use FP16 half-precision inference.')
    return parser.parse_args([])


if __name__ == "__main__":
    args = get_args_parser()
    work = tempfile.mkdtemp()
    args.weights = osp.join(work, "yolov6n.pt")
    args.source = osp.join(work, "images")
    os.makedirs(args.source)
    net = TinyYOLOv6()
    net.eval()
    torch.save({"model": {k: v.half() if v.is_floating_point() else v for k, v in net.state_dict().items()}}, args.weights)
    rng = np.random.default_rng(0)
    for i in range(3):
        np.save(osp.join(args.source, f"img{i}.npy"), rng.integers(0, 256, (48 + 8 * i, 64, 3), dtype=np.uint8))
    inferer = Inferer(args.source, args.weights, args.device, args.img_size, args.half)
    out = inferer.infer(args.conf_thres, args.iou_thres, args.max_det)
    for name, boxes in out.items():
        print(name, len(boxes), "boxes")

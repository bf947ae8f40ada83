"""The GMFSS_union --fp16 interpolation run of ck04 with float16 made explicit: the four networks are cast with .half() after Model() (instead of the deprecated HalfTensor default type) and every frame tensor goes through half_if_fp16 where it is made (what RIFE's pad_image did), so the flow, metric and fusion nets get float16 frames and the interpolated uint8 frames are written
source: https://github.com/98mxr/GMFSS_union/issues/2
reported-error: (none; the fixed situation of ck04)
outcome: ok
root-cause: -
expect: none
"""
import argparse
import warnings

import numpy as np
import torch
import torch.nn as nn
from torch.nn import functional as F

warnings.filterwarnings("ignore")
rng = np.random.default_rng(0)


# ---- skvideo.io.vreader stand-in: a short synthetic clip, uint8 HxWx3 frames (a square moving right) ----------
def vreader(path, n=5, h=60, w=90):
    for t in range(n):
        frame = np.full((h, w, 3), 40, np.uint8)
        frame[20:40, 10 + 8 * t:30 + 8 * t] = (230, 180, 60)
        yield frame


# ---- model/ (small stand-ins with the real entry points: GMFlow, IFNet, MetricNet, AnimeInterp.feat_ext) ------
def conv(cin, cout, stride=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1), nn.PReLU(cout))


class GMFlow(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(conv(6, 16, 2), conv(16, 16))
        self.flow = nn.Conv2d(16, 2, 3, 1, 1)

    def forward(self, img0, img1):
        x = self.flow(self.enc(torch.cat((img0, img1), 1)))
        return F.interpolate(x, scale_factor=2.0, mode="bilinear", align_corners=False) * 2.0


class IFNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = nn.Sequential(conv(7, 16, 2), conv(16, 16), nn.ConvTranspose2d(16, 4, 4, 2, 1))

    def forward(self, imgs, timestep, scale_list):
        t = imgs[:, :1] * 0 + timestep
        flow = self.block(torch.cat((imgs, t), 1))
        return imgs[:, :3] * (1 - timestep) + imgs[:, 3:] * timestep + 0.01 * flow[:, :3]


class MetricNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.metric_net = nn.Sequential(conv(16, 16), nn.Conv2d(16, 2, 3, 1, 1))

    def forward(self, img0, img1, flow01, flow10):
        metric = self.metric_net(torch.cat((img0, img1, flow01, flow10, img0 - img1, img1 - img0), 1))
        return metric[:, :1], metric[:, 1:2]


class AnimeInterp(nn.Module):
    def __init__(self):
        super().__init__()
        self.feat_ext1 = conv(3, 8)
        self.feat_ext2 = conv(8, 16, 2)
        self.feat_ext3 = conv(16, 16, 2)
        self.synthesis = nn.Sequential(conv(3 + 3 + 3 + 2, 16), nn.Conv2d(16, 3, 3, 1, 1))

    def feat_ext(self, x):
        feat1 = self.feat_ext1(x)
        feat2 = self.feat_ext2(feat1)
        feat3 = self.feat_ext3(feat2)
        return feat1, feat2, feat3

    def forward(self, img0, img1, reuse_things, merged, timestep):
        flow01, flow10, metric0, metric1 = reuse_things[:4]
        x = torch.cat((img0, img1, merged, metric0, metric1), 1)
        out = merged + 0.1 * torch.tanh(self.synthesis(x))
        return F.interpolate(out.clamp(0, 1), scale_factor=2.0, mode="bilinear", align_corners=False)


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Model:
    def __init__(self):
        self.flownet = GMFlow()
        self.ifnet = IFNet()
        self.metricnet = MetricNet()
        self.fusionnet = AnimeInterp()
        self.version = 3.9

    def eval(self):
        self.flownet.eval()
        self.ifnet.eval()
        self.metricnet.eval()
        self.fusionnet.eval()

    def device(self):
        self.flownet.to(device)
        self.ifnet.to(device)
        self.metricnet.to(device)
        self.fusionnet.to(device)

    def reuse(self, img0, img1, scale):
        feat11, feat12, feat13 = self.fusionnet.feat_ext((img0 - 0.5) / 0.5)
        feat21, feat22, feat23 = self.fusionnet.feat_ext((img1 - 0.5) / 0.5)
        feat_ext0 = [feat11, feat12, feat13]
        feat_ext1 = [feat21, feat22, feat23]
        img0 = F.interpolate(img0, scale_factor=0.5, mode="bilinear", align_corners=False)
        img1 = F.interpolate(img1, scale_factor=0.5, mode="bilinear", align_corners=False)
        flow01 = self.flownet(img0, img1)
        flow10 = self.flownet(img1, img0)
        metric0, metric1 = self.metricnet(img0, img1, flow01, flow10)
        return flow01, flow10, metric0, metric1, feat_ext0, feat_ext1

    def inference(self, img0, img1, reuse_things, timestep):
        img0 = F.interpolate(img0, scale_factor=0.5, mode="bilinear", align_corners=False)
        img1 = F.interpolate(img1, scale_factor=0.5, mode="bilinear", align_corners=False)
        imgs = torch.cat((img0, img1), 1)
        merged = self.ifnet(imgs, timestep, [8, 4, 2, 1])
        return self.fusionnet(img0, img1, reuse_things, merged, timestep)


# ---- inference_video.py ---------------------------------------------------------------------------------------
parser = argparse.ArgumentParser(description='Interpolation for a pair of images')
parser.add_argument('--video', dest='video', type=str, default=None)
parser.add_argument('--fp16', dest='fp16', action='store_true')
parser.add_argument('--scale', dest='scale', type=float, default=1.0)
parser.add_argument('--multi', dest='multi', type=int, default=2)
args = parser.parse_args(['--video', 'demo.mp4', '--fp16'])

torch.set_grad_enabled(False)

torch.manual_seed(0)
model = Model()
model.eval()
model.device()
if args.fp16:
    # fp16 made explicit instead of a HalfTensor default type: the networks, and below the frames, are cast
    for net in (model.flownet, model.ifnet, model.metricnet, model.fusionnet):
        net.half()

videogen = vreader(args.video)
lastframe = next(videogen)
h, w, _ = lastframe.shape
tmp = max(64, int(64 / args.scale))
ph = ((h - 1) // tmp + 1) * tmp
pw = ((w - 1) // tmp + 1) * tmp


def half_if_fp16(img):  # what RIFE's pad_image did to the frames in fp16 mode
    if (args.fp16):
        return img.half()
    else:
        return img


def make_inference(I0, I1, reuse_things, n):
    res = []
    for i in range(n):
        res.append(model.inference(I0, I1, reuse_things, (i + 1) * 1. / (n + 1)))
    return res


written = [lastframe]
I1 = half_if_fp16(torch.from_numpy(np.transpose(lastframe, (2, 0, 1))).to(device, non_blocking=True).unsqueeze(0).float() / 255.)
I1 = F.interpolate(I1, (ph, pw), mode='bilinear', align_corners=False)
for frame in videogen:
    I0 = I1
    I1 = half_if_fp16(torch.from_numpy(np.transpose(frame, (2, 0, 1))).to(device, non_blocking=True).unsqueeze(0).float() / 255.)
    I1 = F.interpolate(I1, (ph, pw), mode='bilinear', align_corners=False)
    reuse_things = model.reuse(I0, I1, args.scale)
    output = make_inference(I0, I1, reuse_things, args.multi - 1)
    for mid in output:
        mid = F.interpolate(mid, (h, w), mode='bilinear', align_corners=False)
        mid = (((mid[0] * 255.).byte().cpu().numpy().transpose(1, 2, 0)))
        written.append(mid)
    written.append(frame)
print("wrote %d frames (%dX), dtype %s" % (len(written), args.multi, written[1].dtype))

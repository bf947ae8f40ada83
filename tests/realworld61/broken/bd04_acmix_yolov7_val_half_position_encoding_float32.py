"""YOLOv7-style detector with an ACmix block (re-typed from ACmix's test_bottleneck.py: position(), the attention/convolution mix) trained in float32, then validated at the end of the epoch the way YOLOv7's train.py calls test.test(..., half_precision=True): the EMA model is cast with model.half() and the images with img.half(), but ACmix builds its positional grid with torch.linspace in float32 on every forward and feeds it to the now-float16 conv_p
source: https://github.com/LeapLabTHU/ACmix/issues/21
reported-error: "RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.cuda.HalfTensor) should be the same" when validating during YOLO training ("在yolo训练val时会自动进行半精度训练": validation switches to half precision; the fix: cast position()'s output to the input's dtype, position(......).to(x.dtype))
outcome: RuntimeError: Input type (float) and bias type (c10::Half) should be the same at line 75
root-cause: line 75
expect: DG004
"""
import copy
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)
NC, IMG = 3, 32


def position(H, W, is_cuda=True):
    if is_cuda:
        loc_w = torch.linspace(-1.0, 1.0, W).cuda().unsqueeze(0).repeat(H, 1)
        loc_h = torch.linspace(-1.0, 1.0, H).cuda().unsqueeze(1).repeat(1, W)
    else:
        loc_w = torch.linspace(-1.0, 1.0, W).unsqueeze(0).repeat(H, 1)  # root-cause-alt
        loc_h = torch.linspace(-1.0, 1.0, H).unsqueeze(1).repeat(1, W)
    loc = torch.cat([loc_w.unsqueeze(0), loc_h.unsqueeze(0)], 0).unsqueeze(0)
    return loc


def stride(x, stride):
    return x[:, :, ::stride, ::stride]


class ACmix(nn.Module):
    def __init__(self, in_planes, out_planes, kernel_att=7, head=4, kernel_conv=3, stride=1, dilation=1):
        super().__init__()
        self.in_planes, self.out_planes, self.head = in_planes, out_planes, head
        self.kernel_att, self.kernel_conv, self.stride, self.dilation = kernel_att, kernel_conv, stride, dilation
        self.rate1 = torch.nn.Parameter(torch.Tensor(1))
        self.rate2 = torch.nn.Parameter(torch.Tensor(1))
        self.head_dim = self.out_planes // self.head
        self.conv1 = nn.Conv2d(in_planes, out_planes, kernel_size=1)
        self.conv2 = nn.Conv2d(in_planes, out_planes, kernel_size=1)
        self.conv3 = nn.Conv2d(in_planes, out_planes, kernel_size=1)
        self.conv_p = nn.Conv2d(2, self.head_dim, kernel_size=1)
        self.padding_att = (self.dilation * (self.kernel_att - 1) + 1) // 2
        self.pad_att = torch.nn.ReflectionPad2d(self.padding_att)
        self.unfold = nn.Unfold(kernel_size=self.kernel_att, padding=0, stride=self.stride)
        self.softmax = torch.nn.Softmax(dim=1)
        self.fc = nn.Conv2d(3 * self.head, self.kernel_conv * self.kernel_conv, kernel_size=1, bias=False)
        self.dep_conv = nn.Conv2d(self.kernel_conv * self.kernel_conv * self.head_dim, out_planes, kernel_size=self.kernel_conv,
                                  bias=True, groups=self.head_dim, padding=1, stride=stride)
        self.reset_parameters()

    def reset_parameters(self):
        self.rate1.data.fill_(0.5)
        self.rate2.data.fill_(0.5)
        kernel = torch.zeros(self.kernel_conv * self.kernel_conv, self.kernel_conv, self.kernel_conv)
        for i in range(self.kernel_conv * self.kernel_conv):
            kernel[i, i // self.kernel_conv, i % self.kernel_conv] = 1.0
        kernel = kernel.squeeze(0).repeat(self.out_planes, 1, 1, 1)
        self.dep_conv.weight = nn.Parameter(data=kernel, requires_grad=True)
        self.dep_conv.bias.data.fill_(0.0)

    def forward(self, x):
        q, k, v = self.conv1(x), self.conv2(x), self.conv3(x)
        scaling = float(self.head_dim) ** -0.5
        b, c, h, w = q.shape
        h_out, w_out = h // self.stride, w // self.stride

        # ### att
        # ## positional encoding
        pe = self.conv_p(position(h, w, x.is_cuda))  # root-cause  # fails-here

        q_att = q.view(b * self.head, self.head_dim, h, w) * scaling
        k_att = k.view(b * self.head, self.head_dim, h, w)
        v_att = v.view(b * self.head, self.head_dim, h, w)
        if self.stride > 1:
            q_att = stride(q_att, self.stride)
            q_pe = stride(pe, self.stride)
        else:
            q_pe = pe
        unfold_k = self.unfold(self.pad_att(k_att)).view(b * self.head, self.head_dim, self.kernel_att * self.kernel_att, h_out, w_out)
        unfold_rpe = self.unfold(self.pad_att(pe)).view(1, self.head_dim, self.kernel_att * self.kernel_att, h_out, w_out)
        att = (q_att.unsqueeze(2) * (unfold_k + q_pe.unsqueeze(2) - unfold_rpe)).sum(1)
        att = self.softmax(att)
        out_att = self.unfold(self.pad_att(v_att)).view(b * self.head, self.head_dim, self.kernel_att * self.kernel_att, h_out, w_out)
        out_att = (att.unsqueeze(1) * out_att).sum(2).view(b, self.out_planes, h_out, w_out)

        # ## conv
        f_all = self.fc(torch.cat([q.view(b, self.head, self.head_dim, h * w), k.view(b, self.head, self.head_dim, h * w),
                                   v.view(b, self.head, self.head_dim, h * w)], 1))
        f_conv = f_all.permute(0, 2, 1, 3).reshape(x.shape[0], -1, x.shape[-2], x.shape[-1])
        out_conv = self.dep_conv(f_conv)
        return self.rate1 * out_att + self.rate2 * out_conv


class Conv(nn.Module):
    def __init__(self, c1, c2, k=3, s=1):
        super().__init__()
        self.conv = nn.Conv2d(c1, c2, k, s, k // 2, bias=False)
        self.bn = nn.BatchNorm2d(c2)
        self.act = nn.SiLU()

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))


class Model(nn.Module):
    """backbone with an ACmix block, one detection scale (objectness + classes per cell)"""

    def __init__(self):
        super().__init__()
        self.model = nn.Sequential(Conv(3, 16, 3, 2), ACmix(16, 16), Conv(16, 32, 3, 2))
        self.detect = nn.Conv2d(32, 1 + NC, 1)

    def forward(self, x):
        return self.detect(self.model(x))


class ModelEMA:
    def __init__(self, model, decay=0.9999):
        self.ema = copy.deepcopy(model).eval()
        self.updates = 0
        self.decay = lambda x: decay * (1 - math.exp(-x / 2000))
        for p in self.ema.parameters():
            p.requires_grad_(False)

    def update(self, model):
        with torch.no_grad():
            self.updates += 1
            d = self.decay(self.updates)
            msd = model.state_dict()
            for k, v in self.ema.state_dict().items():
                if v.dtype.is_floating_point:
                    v *= d
                    v += (1.0 - d) * msd[k].detach()


def compute_loss(pred, targets):
    obj, cls = pred[:, 0], pred[:, 1:]
    lobj = F.binary_cross_entropy_with_logits(obj, targets["obj"])
    lcls = F.cross_entropy(cls, targets["cls"], reduction="none")
    lcls = (lcls * targets["obj"]).sum() / targets["obj"].sum().clamp(min=1)
    return lobj + lcls


def make_batch(bs=8):
    """uint8 images with a bright square; the targets are on the 8x8 output grid"""
    imgs = np.random.randint(0, 60, (bs, 3, IMG, IMG), dtype=np.uint8)
    obj = torch.zeros(bs, IMG // 4, IMG // 4)
    cls = torch.zeros(bs, IMG // 4, IMG // 4, dtype=torch.long)
    for i in range(bs):
        gy, gx, c = np.random.randint(0, IMG // 4), np.random.randint(0, IMG // 4), np.random.randint(0, NC)
        imgs[i, c, gy * 4:gy * 4 + 4, gx * 4:gx * 4 + 4] = 255
        obj[i, gy, gx], cls[i, gy, gx] = 1.0, c
    return torch.from_numpy(imgs), {"obj": obj, "cls": cls}


def test(model, dataloader, half_precision=True):
    device = next(model.parameters()).device
    half = half_precision  # test.py: device.type != 'cpu' and half_precision (kept on: the reporter validated on CUDA)
    if half:
        model.half()
    model.eval()
    correct = total = 0
    for img, targets in dataloader:
        img = img.to(device, non_blocking=True)
        img = img.half() if half else img.float()  # uint8 to fp16/32
        img /= 255.0
        with torch.no_grad():
            out = model(img)
        hit = out[:, 0].flatten(1).argmax(1)
        correct += int((targets["obj"].flatten(1).argmax(1) == hit).sum())
        total += img.shape[0]
    model.float()
    return correct / total


if __name__ == "__main__":
    model = Model()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.937, nesterov=True)
    ema = ModelEMA(model)
    train_loader = [make_batch() for _ in range(10)]
    val_loader = [make_batch() for _ in range(2)]
    for epoch in range(2):
        model.train()
        for imgs, targets in train_loader:
            imgs = imgs.float() / 255.0  # uint8 to float32, 0-255 to 0.0-1.0
            loss = compute_loss(model(imgs), targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            ema.update(model)
        print(f"epoch {epoch} loss {loss.item():.4f}")
        hit_rate = test(ema.ema, val_loader, half_precision=True)
        print(f"epoch {epoch} val hit rate {hit_rate:.3f}")

"""The ImVisible LYTNet training of cf01 as PR #10 fixes it: TrafficLightDataset builds the midline target with torch.FloatTensor(points), so the NumPy float64 coordinates from the CSV become a float32 tensor, nn.MSELoss compares float32 with float32 and the whole loss stays float32; the pandas reading, flip/crop arithmetic and training loop are unchanged
source: https://github.com/samuelyu2002/ImVisible/pull/10
reported-error: (none; the fixed situation of cf01)
outcome: ok
root-cause: -
expect: none
"""
import math
import random

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
random.seed(0)
rng = np.random.default_rng(0)

BATCH_SIZE = 8
MAX_EPOCHS = 2
INIT_LR = 0.001
LR_DROP_MILESTONES = [400, 600]


# ---- stand-ins for the annotation CSVs and the JPEG folders (PIL / torchvision are not used) --------------------
def make_annotations(n):
    """Annotations/training_file.csv: file, mode, x1, y1, x2, y2 (pixel coordinates of 4032x3024 photos), block."""
    x1 = rng.integers(1500, 2500, n)
    x2 = x1 + rng.integers(-600, 600, n)
    return pd.DataFrame({
        "file": [f"IMG_{i:04d}.JPG" for i in range(n)],
        "mode": rng.integers(0, 5, n),
        "x1": x1, "y1": rng.integers(900, 1400, n),
        "x2": x2, "y2": rng.integers(2800, 3024, n),
        "block": np.where(rng.random(n) < 0.9, "not_blocked", "blocked"),
    })


def open_image(name, train):
    """Image.open(...) of the resized photos: 876x657 for training, 768x576 for validation (H, W, 3 uint8)."""
    h, w = (657, 876) if train else (576, 768)
    return rng.integers(0, 256, (h, w, 3), dtype=np.uint8)


def hflip(image):
    return image[:, ::-1]


def crop(image, top, left, height, width):
    return image[top:top + height, left:left + width]


def color_jitter(image):
    return np.clip(image.astype(np.int16) + rng.integers(-8, 8), 0, 255).astype(np.uint8)


# ---- Model/dataset.py --------------------------------------------------------------------------------------------
class TrafficLightDataset(Dataset):

    def __init__(self, labels, train, transformation=True):
        self.labels = labels
        self.train = train
        self.transformation = transformation

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        image = open_image(self.labels.iloc[index, 0], self.train)

        light_mode = self.labels.iloc[index, 1]  # mode of the traffic light
        block = self.labels.iloc[index, 6]  # label of blocked or unblocked
        points = self.labels.iloc[index, 2:6]  # midline coordinates
        points = [points.iloc[0] / 4032, points.iloc[1] / 3024, points.iloc[2] / 4032, points.iloc[3] / 3024]

        if self.transformation:
            # random horizontal flip with 50% probability
            num = random.random()
            if num >= 0.5:
                image = hflip(image)
                points[0] = 1 - points[0]
                points[2] = 1 - points[2]

            # random crop
            cp = [points[0] * 876, (1 - points[1]) * 657, 876 * points[2], (1 - points[3]) * 657]
            shiftx = random.randint(0, 108)
            shifty = random.randint(0, 81)

            with np.errstate(all="raise"):
                try:
                    m = (cp[1] - cp[3]) / (cp[0] - cp[2])  # slope
                except Exception:
                    m = 10000000000000000

            b = cp[1] - m * cp[0]  # y-intercept

            if shiftx > cp[0]:
                cp[0] = shiftx
                cp[1] = (cp[0] * m + b)
            elif (768 + shiftx) < cp[0]:
                cp[0] = (768 + shiftx)
                cp[1] = (cp[0] * m + b)
            if shiftx > cp[2]:
                cp[2] = shiftx
                cp[3] = (cp[2] * m + b)
            elif (768 + shiftx) < cp[2]:
                cp[2] = (768 + shiftx)
                cp[3] = (cp[2] * m + b)
            if 657 - shifty < cp[1]:
                cp[1] = 657 - shifty
                cp[0] = (cp[1] - b) / m if (cp[1] - b) / m > 0 else 0
            if 657 - 576 - shifty > cp[3]:
                cp[3] = 657 - 576 - shifty
                cp[2] = (cp[3] - b) / m

            # converting the coordinates from a 876x657 image to a 768x576 image
            cp[0] -= shiftx
            cp[1] -= (657 - 576 - shifty)
            cp[2] -= shiftx
            cp[3] -= (657 - 576 - shifty)

            points = [cp[0] / 768, 1 - cp[1] / 576, cp[2] / 768, 1 - cp[3] / 576]

            image = crop(image, shifty, shiftx, 576, 768)
            image = color_jitter(image)

        image = np.ascontiguousarray(image[::8, ::8])  # stand-in: a 72x96 thumbnail keeps the CPU run short
        image = np.transpose(image, (2, 0, 1))
        points = torch.FloatTensor(points)

        final_label = {"image": image, "mode": light_mode, "points": points, "block": block}
        return final_label


# ---- Model/LYTNet.py (MobileNetV2-style backbone, a light-class head and a midline regression head) ------------
def conv_bn(inp, oup, stride):
    return nn.Sequential(nn.Conv2d(inp, oup, 3, stride, 1, bias=False), nn.BatchNorm2d(oup), nn.ReLU6(inplace=True),
                         nn.MaxPool2d(2, 2))


def conv_1x1_bn(inp, oup):
    return nn.Sequential(nn.Conv2d(inp, oup, 1, 1, 0, bias=False), nn.BatchNorm2d(oup), nn.ReLU6(inplace=True))


class InvertedResidual(nn.Module):
    def __init__(self, inp, oup, stride, expand_ratio):
        super().__init__()
        hidden_dim = round(inp * expand_ratio)
        self.use_res_connect = stride == 1 and inp == oup
        self.conv = nn.Sequential(
            nn.Conv2d(inp, hidden_dim, 1, 1, 0, bias=False), nn.BatchNorm2d(hidden_dim), nn.ReLU6(inplace=True),
            nn.Conv2d(hidden_dim, hidden_dim, 3, stride, 1, groups=hidden_dim, bias=False),
            nn.BatchNorm2d(hidden_dim), nn.ReLU6(inplace=True),
            nn.Conv2d(hidden_dim, oup, 1, 1, 0, bias=False), nn.BatchNorm2d(oup))

    def forward(self, x):
        return x + self.conv(x) if self.use_res_connect else self.conv(x)


class LYTNet(nn.Module):
    def __init__(self, n_class=5, width_mult=0.5):
        super().__init__()
        input_channel = int(32 * width_mult)
        self.last_channel = 320
        setting = [[1, 16, 1, 1], [6, 24, 2, 2], [6, 32, 1, 2], [6, 64, 2, 2], [6, 96, 1, 1]]
        features = [conv_bn(3, input_channel, 2)]
        for t, c, n, s in setting:
            output_channel = int(c * width_mult)
            for i in range(n):
                features.append(InvertedResidual(input_channel, output_channel, s if i == 0 else 1, t))
                input_channel = output_channel
        features.append(conv_1x1_bn(input_channel, self.last_channel))
        self.features = nn.Sequential(*features, nn.Dropout(0.1))
        self.classifier_light = nn.Sequential(nn.Linear(self.last_channel, 160), nn.BatchNorm1d(160),
                                              nn.ReLU6(inplace=True), nn.Linear(160, n_class), nn.Softmax(dim=1))
        self.regression_direction = nn.Sequential(nn.Linear(self.last_channel, 80), nn.BatchNorm1d(80),
                                                  nn.ReLU6(inplace=True), nn.Linear(80, 4))

    def forward(self, x):
        x = self.features(x)
        x = x.mean(3).mean(2)
        x1 = self.classifier_light(x)
        x2 = self.regression_direction(x)
        return x1, x2


# ---- Model/loss.py and Model/helpers.py -------------------------------------------------------------------------
def my_loss(classifier, regression, points, mode):
    alpha = 0.5
    MSE = nn.MSELoss()
    MSEl = MSE(regression, points)
    cross_entropy = nn.CrossEntropyLoss()
    ce = cross_entropy(classifier, mode)
    loss = ce * alpha + MSEl * (1 - alpha)
    return loss, MSEl, ce


def direction_performance(pred, label):
    pred = pred.cpu().detach().numpy().tolist()
    label = label.cpu().detach().numpy().tolist()
    pred_angle = math.atan2(pred[0][3] - pred[0][1], pred[0][0] - pred[0][2])
    act_angle = math.atan2(label[0][3] - label[0][1], label[0][0] - label[0][2])
    angle = math.fabs((pred_angle - act_angle) * 180 / math.pi)
    start = math.hypot(pred[0][2] - label[0][2], pred[0][3] - label[0][3])
    end = math.hypot(pred[0][0] - label[0][0], pred[0][1] - label[0][1])
    return angle, start, end


# ---- Model/training.py ------------------------------------------------------------------------------------------
cuda_available = torch.cuda.is_available()

train_dataset = TrafficLightDataset(make_annotations(48), train=True)
valid_dataset = TrafficLightDataset(make_annotations(8), train=False, transformation=False)
train_dataloader = DataLoader(train_dataset, batch_size=BATCH_SIZE, shuffle=True, num_workers=0)
valid_dataloader = DataLoader(valid_dataset, batch_size=1, shuffle=False, num_workers=0)

net = LYTNet()
if cuda_available:
    net = net.cuda()

loss_fn = my_loss
optimizer = torch.optim.Adam(net.parameters(), lr=INIT_LR, weight_decay=0.000005)
lr_scheduler = torch.optim.lr_scheduler.MultiStepLR(optimizer, LR_DROP_MILESTONES)

for epoch in range(MAX_EPOCHS):
    net.train()
    running_loss = running_loss_MSE = running_loss_cross_entropy = 0.0
    train_correct = train_total = 0
    for j, data in enumerate(train_dataloader, 0):
        optimizer.zero_grad()
        train_total += 1
        images = data["image"].type(torch.FloatTensor)
        mode = data["mode"]
        points = data["points"]
        if cuda_available:
            images = images.cuda()
            mode = mode.cuda()
            points = points.cuda()
        pred_classes, pred_direc = net(images)
        _, predicted = torch.max(pred_classes, 1)
        train_correct += (predicted == mode).sum().item()
        loss, MSE, cross_entropy = loss_fn(pred_classes, pred_direc, points, mode)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
        running_loss_MSE += MSE.item()
        running_loss_cross_entropy += cross_entropy.item()
    lr_scheduler.step()
    print(f"Epoch: {epoch + 1}  training loss {running_loss / (j + 1):.4f}  MSE {running_loss_MSE / (j + 1):.4f}  "
          f"CE {running_loss_cross_entropy / (j + 1):.4f}  accuracy {train_correct / train_total / BATCH_SIZE:.3f}")

    net.eval()
    val_running_loss = val_angle_error = 0.0
    val_total = 0
    with torch.no_grad():
        for k, data in enumerate(valid_dataloader, 0):
            images = data["image"].type(torch.FloatTensor)
            mode = data["mode"]
            points = data["points"]
            if cuda_available:
                images = images.cuda()
                mode = mode.cuda()
                points = points.cuda()
            pred_classes, pred_direc = net(images)
            loss, MSE, cross_entropy = loss_fn(pred_classes, pred_direc, points, mode)
            val_running_loss += loss.item()
            angle, start, end = direction_performance(pred_direc, points)
            val_angle_error += angle
            val_total += 1
    print(f"Average validation loss: {val_running_loss / val_total:.4f}  angle error {val_angle_error / val_total:.2f}")

print(f"midline targets dtype: {points.dtype}, regression head dtype: {pred_direc.dtype}, MSE loss dtype: {MSE.dtype}")

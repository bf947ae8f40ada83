"""Vehicle colour recognition (we0091234/Car_recognition as in ak02: the colour checkpoint {'cfg': cfg, 'state_dict': ...} written on the author's GPU machine, car_rec.py's init_car_rec_model run on a CPU-only machine) with the reporter's fix from Car_recognition issue #3, torch.load(model_path, map_location=device), the device chosen with torch.cuda.is_available(); the prediction still goes through out.data.cpu().numpy()
source: https://github.com/we0091234/Car_recognition/issues/3
reported-error: (none filed; the fixed situation of ak02, the map_location=device answer of Car_recognition issue #3)
outcome: ok
root-cause: -
expect: none
"""
import contextlib
import os
import tempfile

import numpy as np

import torch
import torch.nn as nn
import torch.nn.functional as F

colors = ['黑色', '蓝色', '黄色', '棕色', '绿色', '灰色', '橙色', '粉色', '紫色', '红色', '白色']


# ---- car_recognition/myNet.py (reduced: the cfg list builds conv-bn-relu blocks and max pools)
class myNet(nn.Module):
    def __init__(self, cfg=None, num_classes=11):
        super(myNet, self).__init__()
        if cfg is None:
            cfg = [32, 'M', 64, 'M', 96, 'M', 128, 'M', 192]
        self.feature = self.make_layers(cfg, True)
        self.gap = nn.AdaptiveAvgPool2d((1, 1))
        self.classifier = nn.Linear(cfg[-1], num_classes)

    def make_layers(self, cfg, batch_norm=False):
        layers = []
        in_channels = 3
        for i in range(len(cfg)):
            if cfg[i] == 'M':
                layers += [nn.MaxPool2d(kernel_size=3, stride=2, ceil_mode=True)]
            else:
                conv2d = nn.Conv2d(in_channels, cfg[i], kernel_size=3, padding=(1, 1), stride=1)
                if batch_norm:
                    layers += [conv2d, nn.BatchNorm2d(cfg[i]), nn.ReLU(inplace=True)]
                else:
                    layers += [conv2d, nn.ReLU(inplace=True)]
                in_channels = cfg[i]
        return nn.Sequential(*layers)

    def forward(self, x):
        y = self.feature(x)
        y = self.gap(y)
        y = y.view(y.size(0), -1)
        y = self.classifier(y)
        return y


# ---- the author's colour training on the GPU machine (reduced: a few steps on synthetic 64x64 crops)
@contextlib.contextmanager
def storages_tagged_cuda():
    # what torch.save records for tensors that live on the GPU
    orig = torch.serialization.location_tag
    torch.serialization.location_tag = lambda storage: "cuda:0"
    try:
        yield
    finally:
        torch.serialization.location_tag = orig


def train_color_model(save_path, seed=0):
    rng = np.random.default_rng(seed)
    cfg = [32, 'M', 64, 'M', 96, 'M', 128, 'M', 192]
    model = myNet(cfg=cfg, num_classes=len(colors))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(2):
        labels = rng.integers(0, len(colors), 16)
        imgs = rng.uniform(0, 255, (16, 3, 64, 64)).astype(np.float32) - 127.5
        out = model(torch.from_numpy(imgs))
        loss = criterion(out, torch.from_numpy(labels))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print("epoch %d loss %.4f" % (epoch, loss.item()))
    with storages_tagged_cuda():
        torch.save({'cfg': cfg, 'state_dict': model.state_dict()}, save_path)


# ---- car_recognition/car_rec.py
def init_car_rec_model(model_path, device):
    check_point = torch.load(model_path, map_location=device)
    cfg = check_point['cfg']
    model = myNet(num_classes=11, cfg=cfg)
    model.load_state_dict(check_point['state_dict'])
    model.to(device)
    model.eval()
    return model


def imge_processing(img, device):
    img = img[::img.shape[0] // 64, ::img.shape[1] // 64][:64, :64]  # cv2.resize(img, (64, 64))
    img = img.transpose([2, 0, 1])
    img = torch.from_numpy(np.ascontiguousarray(img)).float().to(device)
    img = img - 127.5
    img = img.unsqueeze(0)
    return img


def allFilePath(rootPath, allFIleList):
    fileList = os.listdir(rootPath)
    for temp in fileList:
        if os.path.isfile(os.path.join(rootPath, temp)):
            allFIleList.append(os.path.join(rootPath, temp))
        else:
            allFilePath(os.path.join(rootPath, temp), allFIleList)


def get_color_and_score(model, img, device):
    img = imge_processing(img, device)
    result = model(img)
    out = F.softmax(result, dim=1)
    _, predicted = torch.max(out.data, 1)
    out = out.data.cpu().numpy().tolist()[0]
    predicted = predicted.item()
    car_color = colors[predicted]
    color_conf = out[predicted]
    return car_color, color_conf


if __name__ == '__main__':
    workdir = tempfile.mkdtemp()
    model_path = os.path.join(workdir, "0.8682285244554049_epoth_117_model.pth")
    train_color_model(model_path)  # the checkpoint the repository ships, written on the author's GPU

    root_file = os.path.join(workdir, "imgs")
    os.makedirs(root_file)
    rng = np.random.default_rng(1)
    for k in range(3):
        np.save(os.path.join(root_file, "car_%d.npy" % k), rng.integers(0, 256, (128, 192, 3), dtype=np.uint8))
    file_list = []
    allFilePath(root_file, file_list)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = init_car_rec_model(model_path, device)
    for pic_ in file_list:
        img = np.load(pic_)  # cv2.imread(pic_)
        color, conf = get_color_and_score(model, img, device)
        print(pic_, color, conf)

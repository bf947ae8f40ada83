"""Landscape image colorization with a ResNet-34 stem and an upsampling head predicting the Lab ab channels (williamcfrancis/CNN-Image-Colorization-Pytorch: colorize_data.ColorizeData(ImageFolder) converting each RGB image with rgb2lab / rgb2gray, CNN_model.Net, train.py's Trainer with train / validate, inference_script.py), issue #3 "Unpickling Error while trying to run inference_script.py": train.py ends with torch.save(model, 'models/saved_model.pth'), pickling the whole Net, and inference_script.py's torch.load(args.model_path) runs with the weights-only default of torch >= 2.6, which refuses the Net class
source: https://github.com/williamcfrancis/CNN-Image-Colorization-Pytorch/issues/3
reported-error: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL CNN_model.Net was not an allowed global by default. Please use `torch.serialization.add_safe_globals([Net])` ... (model = torch.load(args.model_path) in inference_script.py)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL __main__.Net was not an allowed global by default. ... at line 304
root-cause: line 293
expect: DG011
"""
import argparse
import os
import tempfile
import time

import numpy as np

import torch
import torch.nn as nn


# ---- skimage.color (rgb2lab / rgb2gray / lab2rgb re-typed: sRGB D65, float64 as skimage returns)
def _srgb_to_linear(rgb):
    return np.where(rgb > 0.04045, ((rgb + 0.055) / 1.055) ** 2.4, rgb / 12.92)


_XYZ_FROM_RGB = np.array([[0.412453, 0.357580, 0.180423],
                          [0.212671, 0.715160, 0.072169],
                          [0.019334, 0.119193, 0.950227]])
_D65 = np.array([0.95047, 1.0, 1.08883])


def rgb2lab(rgb):
    rgb = np.asarray(rgb, dtype=np.float64)
    if rgb.max() > 1:
        rgb = rgb / 255.0
    xyz = _srgb_to_linear(rgb) @ _XYZ_FROM_RGB.T / _D65
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16.0 / 116.0)
    L = 116.0 * f[..., 1] - 16.0
    a = 500.0 * (f[..., 0] - f[..., 1])
    b = 200.0 * (f[..., 1] - f[..., 2])
    return np.stack([L, a, b], axis=-1)


def rgb2gray(rgb):
    rgb = np.asarray(rgb, dtype=np.float64)
    if rgb.max() > 1:
        rgb = rgb / 255.0
    return rgb @ np.array([0.2125, 0.7154, 0.0721])


# ---- torchvision.datasets.ImageFolder / transforms (re-typed for .npy images)
class ImageFolder:
    def __init__(self, root, transform=None):
        self.root = root
        self.transform = transform
        classes = sorted(d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)))
        self.imgs = [(os.path.join(root, c, f), i) for i, c in enumerate(classes)
                     for f in sorted(os.listdir(os.path.join(root, c)))]
        self.loader = np.load

    def __len__(self):
        return len(self.imgs)


class CenterCrop:
    def __init__(self, size):
        self.size = size

    def __call__(self, img):
        h, w = img.shape[:2]
        top, left = (h - self.size) // 2, (w - self.size) // 2
        return img[top:top + self.size, left:left + self.size]


class Compose:
    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, img):
        for t in self.transforms:
            img = t(img)
        return img


# ---- torchvision.models.resnet34 (re-typed)
class BasicBlock(nn.Module):
    expansion = 1

    def __init__(self, inplanes, planes, stride=1, downsample=None):
        super().__init__()
        self.conv1 = nn.Conv2d(inplanes, planes, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(planes, planes, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.downsample = downsample

    def forward(self, x):
        identity = x if self.downsample is None else self.downsample(x)
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return self.relu(out + identity)


class ResNet(nn.Module):
    def __init__(self, block, layers, num_classes=1000):
        super().__init__()
        self.inplanes = 64
        self.conv1 = nn.Conv2d(3, 64, kernel_size=7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(64)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
        self.layer1 = self._make_layer(block, 64, layers[0])
        self.layer2 = self._make_layer(block, 128, layers[1], stride=2)
        self.layer3 = self._make_layer(block, 256, layers[2], stride=2)
        self.layer4 = self._make_layer(block, 512, layers[3], stride=2)
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(512, num_classes)

    def _make_layer(self, block, planes, blocks, stride=1):
        downsample = None
        if stride != 1 or self.inplanes != planes:
            downsample = nn.Sequential(nn.Conv2d(self.inplanes, planes, 1, stride, bias=False), nn.BatchNorm2d(planes))
        layers = [block(self.inplanes, planes, stride, downsample)]
        self.inplanes = planes
        layers += [block(planes, planes) for _ in range(1, blocks)]
        return nn.Sequential(*layers)


def resnet34(num_classes=1000):
    return ResNet(BasicBlock, [3, 4, 6, 3], num_classes=num_classes)


# ---- CNN_model.py
class Net(nn.Module):
    def __init__(self, input_size=128):
        super(Net, self).__init__()
        resnet = resnet34(num_classes=1000)
        resnet.conv1.weight = nn.Parameter(resnet.conv1.weight.sum(dim=1).unsqueeze(1))
        self.midlevel_resnet = nn.Sequential(*list(resnet.children())[0:6])
        RESNET_FEATURE_SIZE = 128
        self.upsample = nn.Sequential(
            nn.Conv2d(RESNET_FEATURE_SIZE, 128, kernel_size=3, stride=1, padding=1),
            nn.BatchNorm2d(128),
            nn.ReLU(),
            nn.Upsample(scale_factor=2),
            nn.Conv2d(128, 64, kernel_size=3, stride=1, padding=1),
            nn.BatchNorm2d(64),
            nn.ReLU(),
            nn.Conv2d(64, 64, kernel_size=3, stride=1, padding=1),
            nn.BatchNorm2d(64),
            nn.ReLU(),
            nn.Upsample(scale_factor=2),
            nn.Conv2d(64, 32, kernel_size=3, stride=1, padding=1),
            nn.BatchNorm2d(32),
            nn.ReLU(),
            nn.Conv2d(32, 16, kernel_size=3, stride=1, padding=1),
            nn.BatchNorm2d(16),
            nn.ReLU(),
            nn.Conv2d(16, 2, kernel_size=3, stride=1, padding=1),
            nn.Upsample(scale_factor=2)
        )

    def forward(self, input):
        midlevel_features = self.midlevel_resnet(input)
        output = self.upsample(midlevel_features)
        return output


# ---- colorize_data.py
class ColorizeData(ImageFolder):

    def __getitem__(self, index):
        path, _ = self.imgs[index]
        input = self.loader(path)
        input = self.transform(input)
        input = np.asarray(input)
        img_lab = rgb2lab(input)
        img_lab = (img_lab + 128) / 255
        img_ab = img_lab[:, :, 1:3]
        img_ab = torch.from_numpy(img_ab.transpose((2, 0, 1))).float()
        input = rgb2gray(input)
        input = torch.from_numpy(input).unsqueeze(0).float()
        return input, img_ab


# ---- train.py
class AverageMeter(object):
    def __init__(self):
        self.reset()

    def reset(self):
        self.val, self.avg, self.sum, self.count = 0, 0, 0, 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count


class Trainer:
    def to_rgb(self, grayscale_input, ab_input, save_path=None, save_name=None):
        # matplotlib / skimage are not installed here: the Lab image is kept as .npy instead of a .jpg
        color_image = torch.cat((grayscale_input, ab_input), 0).numpy()
        color_image = color_image.transpose((1, 2, 0))
        color_image[:, :, 0:1] = color_image[:, :, 0:1] * 100
        color_image[:, :, 1:3] = color_image[:, :, 1:3] * 255 - 128
        if save_path is not None and save_name is not None:
            np.save("{}{}".format(save_path["colorized"], save_name), color_image.astype(np.float64))

    def train(self, train_loader, epoch, model, criterion, optimizer, scheduler, device):
        print("Starting training epoch {}".format(epoch + 1))
        model.train()
        batch_time, data_time, losses = AverageMeter(), AverageMeter(), AverageMeter()
        end = time.time()
        for i, (input_gray, input_ab) in enumerate(train_loader):
            input_gray, input_ab = input_gray.to(device), input_ab.to(device)
            data_time.update(time.time() - end)
            output_ab = model(input_gray)
            loss = criterion(output_ab, input_ab)
            losses.update(loss.item(), input_gray.size(0))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            batch_time.update(time.time() - end)
            end = time.time()
            if i % 2 == 0:
                print("Epoch: [{0}][{1}/{2}]\tLoss {loss.val:.6f} ({loss.avg:.6f})\t".format(
                    epoch + 1, i, len(train_loader), loss=losses))
        print("Finished training epoch {}".format(epoch + 1))

    def validate(self, val_loader, epoch, save_images, model, criterion, device, out_dir):
        model.eval()
        losses = AverageMeter()
        already_saved_images = False
        for i, (input_gray, input_ab) in enumerate(val_loader):
            input_gray, input_ab = input_gray.to(device), input_ab.to(device)
            output_ab = model(input_gray)
            loss = criterion(output_ab, input_ab)
            losses.update(loss.item(), input_gray.size(0))
            if save_images and not already_saved_images:
                already_saved_images = True
                for j in range(min(len(output_ab), 10)):
                    save_path = {"grayscale": out_dir + "/gray/", "colorized": out_dir + "/color/"}
                    save_name = "img-{}-epoch-{}.npy".format(i * val_loader.batch_size + j, epoch + 1)
                    self.to_rgb(input_gray[j].cpu(), ab_input=output_ab[j].detach().cpu(), save_path=save_path,
                                save_name=save_name)
        print("Finished validation. Loss {:.6f}".format(losses.avg))
        return losses.avg


def train_main(argv, workdir):
    parser = argparse.ArgumentParser()
    parser.add_argument("--image_dir", type=str, default="landscape_images/")
    parser.add_argument("--epochs", type=int, default=100)
    parser.add_argument("--save_images", type=bool, default=True)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--weight_decay", type=float, default=1e-4)
    parser.add_argument("--save_model", type=bool, default=True)
    parser.add_argument("--loss", type=str, default="mse")
    parser.add_argument("--batch_size", type=int, default=32)
    parser.add_argument("--crop", type=int, default=224)
    parser.add_argument("--device", type=str, default="cpu")
    args = parser.parse_args(argv)
    device = torch.device(args.device)

    os.makedirs(workdir + "/outputs/color", exist_ok=True)
    os.makedirs(workdir + "/outputs/gray", exist_ok=True)
    os.makedirs(workdir + "/models", exist_ok=True)

    model = Net().to(device)
    if args.loss == "mse":
        criterion = nn.MSELoss()
    else:
        criterion = nn.L1Loss()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=5, gamma=0.5)

    train_transforms = Compose([CenterCrop(args.crop)])
    train_imagefolder = ColorizeData(workdir + "/images/train", train_transforms)
    train_loader = torch.utils.data.DataLoader(train_imagefolder, batch_size=args.batch_size, shuffle=True)
    val_transforms = Compose([CenterCrop(args.crop)])
    val_imagefolder = ColorizeData(workdir + "/images/val", val_transforms)
    val_loader = torch.utils.data.DataLoader(val_imagefolder, batch_size=args.batch_size, shuffle=False)
    print("Image preprocessing completed!")

    for epoch in range(args.epochs):
        Trainer().train(train_loader, epoch, model, criterion, optimizer, scheduler, device)
        scheduler.step()
        with torch.no_grad():
            Trainer().validate(val_loader, epoch, args.save_images, model, criterion, device, workdir + "/outputs")

    if args.save_model == True:
        torch.save(model, workdir + "/models/saved_model.pth")  # root-cause


# ---- inference_script.py
def inference_main(argv, workdir):
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_path", default="models/saved_model.pth", type=str)
    parser.add_argument("--image_path", default="inference/test_img.npy", type=str)
    parser.add_argument("--device", type=str, default="cpu")
    args = parser.parse_args(argv)
    print("Beginning Inference")
    model = torch.load(args.model_path, map_location=args.device)  # fails-here
    input_gray = np.load(args.image_path)
    input_gray = rgb2gray(input_gray)
    input_gray = torch.from_numpy(input_gray).unsqueeze(0).float()
    input_gray = torch.unsqueeze(input_gray, dim=0).to(args.device)
    model.eval()
    output_ab = model(input_gray)
    Trainer().to_rgb(input_gray[0].cpu(), output_ab[0].detach().cpu(),
                     save_path={"colorized": workdir + "/inference/"}, save_name="inference_output.npy")
    print("Colorized image saved at 'inference/inference_output.npy'")


def make_landscapes(workdir, n_train=8, n_val=4, size=72, seed=0):
    rng = np.random.default_rng(seed)
    for split, n in (("train", n_train), ("val", n_val)):
        os.makedirs(os.path.join(workdir, "images", split, "class"))
        for i in range(n):
            sky = np.linspace([90, 140, 230], [200, 220, 250], size // 2)
            ground = np.linspace([60, 140, 50], [30, 90, 20], size - size // 2)
            img = np.concatenate([sky, ground])[:, None, :].repeat(size, axis=1)
            img = np.clip(img + rng.normal(0, 12, img.shape), 0, 255).astype(np.uint8)
            np.save(os.path.join(workdir, "images", split, "class", "img_%03d.npy" % i), img)
    os.makedirs(os.path.join(workdir, "inference"))
    np.save(os.path.join(workdir, "inference", "test_img.npy"), img[:64, :64])


if __name__ == "__main__":
    torch.manual_seed(0)
    workdir = tempfile.mkdtemp()
    make_landscapes(workdir)
    # python train.py --epochs 1 --batch_size 4 ; then python inference_script.py
    train_main(["--epochs", "1", "--batch_size", "4", "--crop", "64"], workdir)
    inference_main(["--model_path", workdir + "/models/saved_model.pth",
                    "--image_path", workdir + "/inference/test_img.npy"], workdir)

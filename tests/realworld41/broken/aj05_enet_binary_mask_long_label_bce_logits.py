"""ENet on the user's own binary-mask dataset (davidtvs/PyTorch-ENet: args.py argparse, main.py load_dataset / train, train.py's Train.run_epoch, metric/iou.py, the ENet model with its initial block and bottlenecks), PyTorch-ENet issue #10 "Training the network on a binary mask": following the maintainer's advice the user sets num_classes to 1 and the criterion to nn.BCEWithLogitsLoss, but keeps the thread's label transform transforms.ToTensor()(pic).long() in the dataset, so the mask batches are int64 and BCEWithLogitsLoss cannot write its float result into a Long target type
source: https://github.com/davidtvs/PyTorch-ENet/issues/10
reported-error: (the thread) the label transform transforms.ToTensor()(pic).long().squeeze_() for the 2-d binary masks; with num_classes = 1 and torch.nn.BCEWithLogitsLoss an integer target raises RuntimeError: result type Float can't be cast to the desired output type Long
outcome: RuntimeError: result type Float can't be cast to the desired output type Long at line 277
root-cause: line 81
expect: DG007
"""
import argparse
import os
import tempfile
from collections import OrderedDict

import numpy as np

import torch
import torch.nn as nn
import torch.optim as optim
import torch.utils.data as data
from torch.optim import lr_scheduler


# ---- args.py
def get_arguments(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", "-m", choices=["train", "test", "full"], default="train")
    parser.add_argument("--batch-size", "-b", type=int, default=4)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--learning-rate", "-lr", type=float, default=5e-4)
    parser.add_argument("--lr-decay", type=float, default=0.1)
    parser.add_argument("--lr-decay-epochs", type=int, default=100)
    parser.add_argument("--weight-decay", "-wd", type=float, default=2e-4)
    parser.add_argument("--dataset", choices=["camvid", "cityscapes", "binary"], default="binary")
    parser.add_argument("--dataset-dir", type=str, default="data/BinaryMasks")
    parser.add_argument("--height", type=int, default=64)
    parser.add_argument("--width", type=int, default=64)
    parser.add_argument("--ignore-unlabeled", dest="ignore_unlabeled", action="store_true")
    parser.add_argument("--workers", type=int, default=0)
    parser.add_argument("--print-step", action="store_true")
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--name", type=str, default="ENet")
    parser.add_argument("--save-dir", type=str, default="save")
    return parser.parse_args(argv)


# ---- torchvision.transforms (ToTensor for HxWxC uint8 arrays, the images here are .npy files instead of PNGs)
class ToTensor:
    def __call__(self, pic):
        if pic.ndim == 2:
            pic = pic[:, :, None]
        img = torch.from_numpy(pic.transpose((2, 0, 1))).contiguous()
        if img.dtype == torch.uint8:
            return img.float().div(255)
        return img


class Compose:
    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, x):
        for t in self.transforms:
            x = t(x)
        return x


class CenterCrop:
    def __init__(self, size):
        self.h, self.w = size

    def __call__(self, pic):
        top = (pic.shape[0] - self.h) // 2
        left = (pic.shape[1] - self.w) // 2
        return pic[top:top + self.h, left:left + self.w]


# ---- data/binary.py (the user's Dataset, modelled on data/camvid.py)
class MaskToLongTensor:
    """The thread's label transform, transforms.ToTensor()(pic).long(), keeping the channel axis for the 1-channel output."""

    def __call__(self, pic):
        return ToTensor()(pic).long()  # root-cause


class BinaryMasks(data.Dataset):
    train_folder, train_lbl_folder = "train", "trainannot"
    val_folder, val_lbl_folder = "val", "valannot"
    img_extension = ".npy"
    color_encoding = OrderedDict([
        ("object", (255, 255, 0)),
        ("unlabeled", (0, 0, 0)),
    ])

    def __init__(self, root_dir, mode="train", transform=None, label_transform=None):
        self.root_dir = root_dir
        self.mode = mode
        self.transform = transform
        self.label_transform = label_transform
        folder, lbl_folder = ((self.train_folder, self.train_lbl_folder) if mode == "train"
                              else (self.val_folder, self.val_lbl_folder))
        self.data = sorted(os.path.join(root_dir, folder, f) for f in os.listdir(os.path.join(root_dir, folder)))
        self.labels = sorted(os.path.join(root_dir, lbl_folder, f)
                             for f in os.listdir(os.path.join(root_dir, lbl_folder)))

    def __getitem__(self, index):
        img = np.load(self.data[index])
        label = np.load(self.labels[index])
        if self.transform is not None:
            img = self.transform(img)
        if self.label_transform is not None:
            label = self.label_transform(label)
        return img, label

    def __len__(self):
        return len(self.data)


# ---- models/enet.py (reduced: the initial block, one downsampling stage, regular bottlenecks, one upsampling stage)
class InitialBlock(nn.Module):
    def __init__(self, in_channels, out_channels, bias=False, relu=True):
        super().__init__()
        activation = nn.ReLU if relu else nn.PReLU
        self.main_branch = nn.Conv2d(in_channels, out_channels - 3, kernel_size=3, stride=2, padding=1, bias=bias)
        self.ext_branch = nn.MaxPool2d(3, stride=2, padding=1)
        self.batch_norm = nn.BatchNorm2d(out_channels)
        self.out_activation = activation()

    def forward(self, x):
        main = self.main_branch(x)
        ext = self.ext_branch(x)
        out = torch.cat((main, ext), 1)
        return self.out_activation(self.batch_norm(out))


class RegularBottleneck(nn.Module):
    def __init__(self, channels, internal_ratio=4, kernel_size=3, padding=1, dilation=1, dropout_prob=0.0,
                 bias=False, relu=True):
        super().__init__()
        internal_channels = channels // internal_ratio
        activation = nn.ReLU if relu else nn.PReLU
        self.ext_conv1 = nn.Sequential(nn.Conv2d(channels, internal_channels, 1, bias=bias),
                                       nn.BatchNorm2d(internal_channels), activation())
        self.ext_conv2 = nn.Sequential(nn.Conv2d(internal_channels, internal_channels, kernel_size, padding=padding,
                                                 dilation=dilation, bias=bias),
                                       nn.BatchNorm2d(internal_channels), activation())
        self.ext_conv3 = nn.Sequential(nn.Conv2d(internal_channels, channels, 1, bias=bias),
                                       nn.BatchNorm2d(channels), activation())
        self.ext_regul = nn.Dropout2d(p=dropout_prob)
        self.out_activation = activation()

    def forward(self, x):
        ext = self.ext_regul(self.ext_conv3(self.ext_conv2(self.ext_conv1(x))))
        return self.out_activation(x + ext)


class DownsamplingBottleneck(nn.Module):
    def __init__(self, in_channels, out_channels, internal_ratio=4, return_indices=False, dropout_prob=0.0,
                 bias=False, relu=True):
        super().__init__()
        self.return_indices = return_indices
        internal_channels = in_channels // internal_ratio
        activation = nn.ReLU if relu else nn.PReLU
        self.main_max1 = nn.MaxPool2d(2, stride=2, return_indices=return_indices)
        self.ext_conv1 = nn.Sequential(nn.Conv2d(in_channels, internal_channels, 2, stride=2, bias=bias),
                                       nn.BatchNorm2d(internal_channels), activation())
        self.ext_conv2 = nn.Sequential(nn.Conv2d(internal_channels, internal_channels, 3, padding=1, bias=bias),
                                       nn.BatchNorm2d(internal_channels), activation())
        self.ext_conv3 = nn.Sequential(nn.Conv2d(internal_channels, out_channels, 1, bias=bias),
                                       nn.BatchNorm2d(out_channels), activation())
        self.ext_regul = nn.Dropout2d(p=dropout_prob)
        self.out_activation = activation()

    def forward(self, x):
        if self.return_indices:
            main, max_indices = self.main_max1(x)
        else:
            main, max_indices = self.main_max1(x), None
        ext = self.ext_regul(self.ext_conv3(self.ext_conv2(self.ext_conv1(x))))
        n, ch_ext, h, w = ext.size()
        ch_main = main.size()[1]
        padding = torch.zeros(n, ch_ext - ch_main, h, w)
        if main.is_cuda:
            padding = padding.cuda()
        main = torch.cat((main, padding), 1)
        return self.out_activation(main + ext), max_indices


class UpsamplingBottleneck(nn.Module):
    def __init__(self, in_channels, out_channels, internal_ratio=4, dropout_prob=0.0, bias=False, relu=True):
        super().__init__()
        internal_channels = in_channels // internal_ratio
        activation = nn.ReLU if relu else nn.PReLU
        self.main_conv1 = nn.Sequential(nn.Conv2d(in_channels, out_channels, 1, bias=bias),
                                        nn.BatchNorm2d(out_channels))
        self.main_unpool1 = nn.MaxUnpool2d(kernel_size=2)
        self.ext_conv1 = nn.Sequential(nn.Conv2d(in_channels, internal_channels, 1, bias=bias),
                                       nn.BatchNorm2d(internal_channels), activation())
        self.ext_tconv1 = nn.ConvTranspose2d(internal_channels, internal_channels, 2, stride=2, bias=bias)
        self.ext_tconv1_bnorm = nn.BatchNorm2d(internal_channels)
        self.ext_tconv1_activation = activation()
        self.ext_conv2 = nn.Sequential(nn.Conv2d(internal_channels, out_channels, 1, bias=bias),
                                       nn.BatchNorm2d(out_channels), activation())
        self.ext_regul = nn.Dropout2d(p=dropout_prob)
        self.out_activation = activation()

    def forward(self, x, max_indices, output_size):
        main = self.main_unpool1(self.main_conv1(x), max_indices, output_size=output_size)
        ext = self.ext_conv1(x)
        ext = self.ext_tconv1_activation(self.ext_tconv1_bnorm(self.ext_tconv1(ext, output_size=output_size)))
        ext = self.ext_regul(self.ext_conv2(ext))
        return self.out_activation(main + ext)


class ENet(nn.Module):
    def __init__(self, num_classes, encoder_relu=False, decoder_relu=True):
        super().__init__()
        self.initial_block = InitialBlock(3, 16, relu=encoder_relu)
        self.downsample1_0 = DownsamplingBottleneck(16, 64, return_indices=True, dropout_prob=0.01,
                                                    relu=encoder_relu)
        self.regular1_1 = RegularBottleneck(64, padding=1, dropout_prob=0.01, relu=encoder_relu)
        self.regular1_2 = RegularBottleneck(64, padding=2, dilation=2, dropout_prob=0.01, relu=encoder_relu)
        self.upsample4_0 = UpsamplingBottleneck(64, 16, dropout_prob=0.1, relu=decoder_relu)
        self.regular4_1 = RegularBottleneck(16, padding=1, dropout_prob=0.1, relu=decoder_relu)
        self.transposed_conv = nn.ConvTranspose2d(16, num_classes, kernel_size=3, stride=2, padding=1, bias=False)

    def forward(self, x):
        input_size = x.size()
        x = self.initial_block(x)
        stage1_input_size = x.size()
        x, max_indices1_0 = self.downsample1_0(x)
        x = self.regular1_2(self.regular1_1(x))
        x = self.upsample4_0(x, max_indices1_0, output_size=stage1_input_size)
        x = self.regular4_1(x)
        return self.transposed_conv(x, output_size=input_size)


# ---- metric/confusionmatrix.py + metric/iou.py (binary version: logits > 0 against the mask)
class IoU:
    def __init__(self):
        self.reset()

    def reset(self):
        self.tp = self.fp = self.fn = 0

    def add(self, predicted, target):
        predicted = predicted.view(-1).bool()
        target = target.view(-1).bool()
        self.tp += int((predicted & target).sum())
        self.fp += int((predicted & ~target).sum())
        self.fn += int((~predicted & target).sum())

    def value(self):
        denom = self.tp + self.fp + self.fn
        iou = self.tp / denom if denom else float("nan")
        return np.array([iou]), iou


# ---- train.py
class Train:
    def __init__(self, model, data_loader, optim, criterion, metric, device):
        self.model = model
        self.data_loader = data_loader
        self.optim = optim
        self.criterion = criterion
        self.metric = metric
        self.device = device

    def run_epoch(self, iteration_loss=False):
        self.model.train()
        epoch_loss = 0.0
        self.metric.reset()
        for step, batch_data in enumerate(self.data_loader):
            inputs = batch_data[0].to(self.device)
            labels = batch_data[1].to(self.device)

            outputs = self.model(inputs)

            loss = self.criterion(outputs, labels)  # fails-here

            self.optim.zero_grad()
            loss.backward()
            self.optim.step()

            epoch_loss += loss.item()
            self.metric.add(outputs.detach() > 0, labels.detach())
            if iteration_loss:
                print("[Step: %d] Iteration loss: %.4f" % (step, loss.item()))
        return epoch_loss / len(self.data_loader), self.metric.value()


# ---- main.py
def load_dataset(dataset, args):
    print("\nLoading dataset...\n")
    print("Selected dataset:", args.dataset)
    print("Dataset directory:", args.dataset_dir)
    image_transform = Compose([CenterCrop((args.height, args.width)), ToTensor()])
    label_transform = Compose([CenterCrop((args.height, args.width)), MaskToLongTensor()])

    train_set = dataset(args.dataset_dir, transform=image_transform, label_transform=label_transform)
    train_loader = data.DataLoader(train_set, batch_size=args.batch_size, shuffle=True, num_workers=args.workers)
    val_set = dataset(args.dataset_dir, mode="val", transform=image_transform, label_transform=label_transform)
    val_loader = data.DataLoader(val_set, batch_size=args.batch_size, shuffle=False, num_workers=args.workers)
    class_encoding = train_set.color_encoding
    num_classes = 1  # binary mask: a single output channel, as advised in the thread
    print("Number of classes to predict:", num_classes)
    print("Train dataset size:", len(train_set))
    print("Validation dataset size:", len(val_set))
    return (train_loader, val_loader), class_encoding, num_classes


def train(train_loader, val_loader, class_encoding, num_classes, args):
    print("\nTraining...\n")
    model = ENet(num_classes).to(args.device)
    criterion = nn.BCEWithLogitsLoss()
    optimizer = optim.Adam(model.parameters(), lr=args.learning_rate, weight_decay=args.weight_decay)
    lr_updater = lr_scheduler.StepLR(optimizer, args.lr_decay_epochs, args.lr_decay)
    metric = IoU()
    train_obj = Train(model, train_loader, optimizer, criterion, metric, args.device)
    for epoch in range(args.epochs):
        print(">>>> [Epoch: {0:d}] Training".format(epoch))
        epoch_loss, (iou, miou) = train_obj.run_epoch(args.print_step)
        lr_updater.step()
        print(">>>> [Epoch: {0:d}] Avg. loss: {1:.4f} | Mean IoU: {2:.4f}".format(epoch, epoch_loss, miou))
    return model


def make_binary_mask_dataset(root, n_train=12, n_val=4, size=72, seed=0):
    rng = np.random.default_rng(seed)
    for folder, lbl_folder, n in (("train", "trainannot", n_train), ("val", "valannot", n_val)):
        os.makedirs(os.path.join(root, folder))
        os.makedirs(os.path.join(root, lbl_folder))
        for i in range(n):
            yy, xx = np.mgrid[:size, :size]
            cy, cx, r = rng.integers(20, size - 20, 2).tolist() + [int(rng.integers(8, 18))]
            mask = (((yy - cy) ** 2 + (xx - cx) ** 2) < r * r).astype(np.uint8) * 255
            img = rng.integers(0, 60, (size, size, 3)).astype(np.uint8)
            img[mask > 0] = (np.array([255, 255, 0]) * 0.8 + rng.integers(0, 40, 3)).astype(np.uint8)
            np.save(os.path.join(root, folder, "img_%03d.npy" % i), img)
            np.save(os.path.join(root, lbl_folder, "img_%03d.npy" % i), mask)


if __name__ == "__main__":
    torch.manual_seed(0)
    root = os.path.join(tempfile.mkdtemp(), "BinaryMasks")
    make_binary_mask_dataset(root)
    args = get_arguments(["--dataset-dir", root])
    loaders, class_encoding, num_classes = load_dataset(BinaryMasks, args)
    train_loader, val_loader = loaders
    model = train(train_loader, val_loader, class_encoding, num_classes, args)

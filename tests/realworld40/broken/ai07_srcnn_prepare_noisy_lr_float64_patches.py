"""SRCNN super-resolution (yjn870/SRCNN-pytorch prepare.py's train()/eval() writing Y-channel patches to HDF5, datasets.py's TrainDataset/EvalDataset, models.py's SRCNN, utils.py's convert_rgb_to_y/calc_psnr/AverageMeter, train.py) with a --noise-sigma option that degrades the training LR images with Gaussian sensor noise: lr + np.random.normal(0, sigma, lr.shape) turns the float32 LR array into float64, convert_rgb_to_y keeps float64, the HDF5 'lr' patches are float64, TrainDataset returns f['lr'][idx] / 255. as float64 and the DataLoader's batch reaches SRCNN's first convolution as a DoubleTensor
source: https://github.com/yjn870/SRCNN-pytorch/blob/064dbaac09859f5fa1b35608ab90145e2d60828b/prepare.py
reported-error: (none filed; upstream's prepare.py has no noise option: hr and lr are np.array(...).astype(np.float32) and stay float32; h5py and PIL are replaced by small stand-ins with the calls the repository makes)
outcome: RuntimeError: Input type (double) and bias type (float) should be the same at line 253
root-cause: line 155
expect: DG004
"""
import argparse
import glob
import os
import copy
import pickle
import tempfile

import numpy as np
import scipy.ndimage
import torch
from torch import nn
import torch.optim as optim
import torch.backends.cudnn as cudnn
from torch.utils.data import Dataset
from torch.utils.data.dataloader import DataLoader

WORKDIR = tempfile.mkdtemp()


# ---- stand-ins for h5py and PIL.Image (not installed here), with the calls prepare.py / datasets.py make
class h5py:
    class File:
        def __init__(self, path, mode='r'):
            self.path, self.mode = path, mode
            if mode == 'r':
                with open(path, 'rb') as f:
                    self.root = pickle.load(f)
            else:
                self.root = {}

        def create_dataset(self, name, data):
            self.root[name] = np.array(data)
            return self.root[name]

        def create_group(self, name):
            self.root[name] = {}
            return h5py._Group(self.root[name])

        def __getitem__(self, name):
            return self.root[name]

        def close(self):
            if self.mode == 'w':
                with open(self.path, 'wb') as f:
                    pickle.dump(self.root, f)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.close()

    class _Group:
        def __init__(self, d):
            self.d = d

        def create_dataset(self, name, data):
            self.d[name] = np.array(data)


class pil_image:
    BICUBIC = 3

    class Image:
        def __init__(self, arr):
            self.arr = arr
            self.height, self.width = arr.shape[:2]

        def convert(self, mode):
            return self

        def resize(self, size, resample=3):
            w, h = size
            out = scipy.ndimage.zoom(self.arr.astype(np.float32), (h / self.height, w / self.width, 1), order=resample)
            return pil_image.Image(np.clip(np.round(out), 0, 255).astype(np.uint8))

        def __array__(self, dtype=None, copy=None):
            return self.arr if dtype is None else self.arr.astype(dtype)

    @staticmethod
    def open(path):
        return pil_image.Image(np.load(path))


def make_images(images_dir, n, size, seed):
    rng = np.random.RandomState(seed)
    os.makedirs(images_dir, exist_ok=True)
    yy, xx = np.mgrid[0:size, 0:size]
    for i in range(n):
        img = np.zeros((size, size, 3))
        for c in range(3):
            fx, fy, ph = rng.uniform(0.05, 0.3), rng.uniform(0.05, 0.3), rng.uniform(0, 6)
            img[..., c] = 127 + 100 * np.sin(fx * xx + ph) * np.cos(fy * yy)
        np.save(os.path.join(images_dir, 'img_%02d.npy' % i), np.clip(img, 0, 255).astype(np.uint8))


# ---- utils.py
def convert_rgb_to_y(img):
    if type(img) == np.ndarray:
        return 16. + (64.738 * img[:, :, 0] + 129.057 * img[:, :, 1] + 25.064 * img[:, :, 2]) / 256.
    elif type(img) == torch.Tensor:
        if len(img.shape) == 4:
            img = img.squeeze(0)
        return 16. + (64.738 * img[0, :, :] + 129.057 * img[1, :, :] + 25.064 * img[2, :, :]) / 256.
    else:
        raise Exception('Unknown Type', type(img))


def calc_psnr(img1, img2):
    return 10. * torch.log10(1. / torch.mean((img1 - img2) ** 2))


class AverageMeter(object):
    def __init__(self):
        self.reset()

    def reset(self):
        self.val = 0
        self.avg = 0
        self.sum = 0
        self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count


# ---- prepare.py
def prepare_train(args):
    h5_file = h5py.File(args.output_path, 'w')

    lr_patches = []
    hr_patches = []

    for image_path in sorted(glob.glob('{}/*'.format(args.images_dir))):
        hr = pil_image.open(image_path).convert('RGB')
        hr_width = (hr.width // args.scale) * args.scale
        hr_height = (hr.height // args.scale) * args.scale
        hr = hr.resize((hr_width, hr_height), resample=pil_image.BICUBIC)
        lr = hr.resize((hr_width // args.scale, hr_height // args.scale), resample=pil_image.BICUBIC)
        lr = lr.resize((lr.width * args.scale, lr.height * args.scale), resample=pil_image.BICUBIC)
        hr = np.array(hr).astype(np.float32)
        lr = np.array(lr).astype(np.float32)
        if args.noise_sigma > 0:
            # degrade the training input with sensor noise (real-world SR): the network learns to denoise too
            lr = lr + np.random.normal(0, args.noise_sigma, lr.shape)  # root-cause
        hr = convert_rgb_to_y(hr)
        lr = convert_rgb_to_y(lr)

        for i in range(0, lr.shape[0] - args.patch_size + 1, args.stride):
            for j in range(0, lr.shape[1] - args.patch_size + 1, args.stride):
                lr_patches.append(lr[i:i + args.patch_size, j:j + args.patch_size])
                hr_patches.append(hr[i:i + args.patch_size, j:j + args.patch_size])

    lr_patches = np.array(lr_patches)
    hr_patches = np.array(hr_patches)

    h5_file.create_dataset('lr', data=lr_patches)
    h5_file.create_dataset('hr', data=hr_patches)

    h5_file.close()


def prepare_eval(args):
    h5_file = h5py.File(args.output_path, 'w')

    lr_group = h5_file.create_group('lr')
    hr_group = h5_file.create_group('hr')

    for i, image_path in enumerate(sorted(glob.glob('{}/*'.format(args.images_dir)))):
        hr = pil_image.open(image_path).convert('RGB')
        hr_width = (hr.width // args.scale) * args.scale
        hr_height = (hr.height // args.scale) * args.scale
        hr = hr.resize((hr_width, hr_height), resample=pil_image.BICUBIC)
        lr = hr.resize((hr_width // args.scale, hr_height // args.scale), resample=pil_image.BICUBIC)
        lr = lr.resize((lr.width * args.scale, lr.height * args.scale), resample=pil_image.BICUBIC)
        hr = np.array(hr).astype(np.float32)
        lr = np.array(lr).astype(np.float32)
        hr = convert_rgb_to_y(hr)
        lr = convert_rgb_to_y(lr)

        lr_group.create_dataset(str(i), data=lr)
        hr_group.create_dataset(str(i), data=hr)

    h5_file.close()


def prepare_main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument('--images-dir', type=str, required=True)
    parser.add_argument('--output-path', type=str, required=True)
    parser.add_argument('--patch-size', type=int, default=33)
    parser.add_argument('--stride', type=int, default=14)
    parser.add_argument('--scale', type=int, default=2)
    parser.add_argument('--noise-sigma', type=float, default=0.0)
    parser.add_argument('--eval', action='store_true')
    args = parser.parse_args(argv)

    if not args.eval:
        prepare_train(args)
    else:
        prepare_eval(args)


# ---- datasets.py
class TrainDataset(Dataset):
    def __init__(self, h5_file):
        super(TrainDataset, self).__init__()
        self.h5_file = h5_file

    def __getitem__(self, idx):
        with h5py.File(self.h5_file, 'r') as f:
            return np.expand_dims(f['lr'][idx] / 255., 0), np.expand_dims(f['hr'][idx] / 255., 0)

    def __len__(self):
        with h5py.File(self.h5_file, 'r') as f:
            return len(f['lr'])


class EvalDataset(Dataset):
    def __init__(self, h5_file):
        super(EvalDataset, self).__init__()
        self.h5_file = h5_file

    def __getitem__(self, idx):
        with h5py.File(self.h5_file, 'r') as f:
            return np.expand_dims(f['lr'][str(idx)][:, :] / 255., 0), np.expand_dims(f['hr'][str(idx)][:, :] / 255., 0)

    def __len__(self):
        with h5py.File(self.h5_file, 'r') as f:
            return len(f['lr'])


# ---- models.py
class SRCNN(nn.Module):
    def __init__(self, num_channels=1):
        super(SRCNN, self).__init__()
        self.conv1 = nn.Conv2d(num_channels, 64, kernel_size=9, padding=9 // 2)
        self.conv2 = nn.Conv2d(64, 32, kernel_size=5, padding=5 // 2)
        self.conv3 = nn.Conv2d(32, num_channels, kernel_size=5, padding=5 // 2)
        self.relu = nn.ReLU(inplace=True)

    def forward(self, x):
        x = self.relu(self.conv1(x))  # fails-here
        x = self.relu(self.conv2(x))
        x = self.conv3(x)
        return x


# ---- train.py
def train_main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument('--train-file', type=str, required=True)
    parser.add_argument('--eval-file', type=str, required=True)
    parser.add_argument('--outputs-dir', type=str, required=True)
    parser.add_argument('--scale', type=int, default=3)
    parser.add_argument('--lr', type=float, default=1e-4)
    parser.add_argument('--batch-size', type=int, default=16)
    parser.add_argument('--num-epochs', type=int, default=400)
    parser.add_argument('--num-workers', type=int, default=8)
    parser.add_argument('--seed', type=int, default=123)
    args = parser.parse_args(argv)

    args.outputs_dir = os.path.join(args.outputs_dir, 'x{}'.format(args.scale))

    if not os.path.exists(args.outputs_dir):
        os.makedirs(args.outputs_dir)

    cudnn.benchmark = True
    device = torch.device('cuda:0' if torch.cuda.is_available() else 'cpu')

    torch.manual_seed(args.seed)

    model = SRCNN().to(device)
    criterion = nn.MSELoss()
    optimizer = optim.Adam([
        {'params': model.conv1.parameters()},
        {'params': model.conv2.parameters()},
        {'params': model.conv3.parameters(), 'lr': args.lr * 0.1}
    ], lr=args.lr)

    train_dataset = TrainDataset(args.train_file)
    train_dataloader = DataLoader(dataset=train_dataset,
                                  batch_size=args.batch_size,
                                  shuffle=True,
                                  num_workers=args.num_workers,
                                  pin_memory=True,
                                  drop_last=True)
    eval_dataset = EvalDataset(args.eval_file)
    eval_dataloader = DataLoader(dataset=eval_dataset, batch_size=1)

    best_weights = copy.deepcopy(model.state_dict())
    best_epoch = 0
    best_psnr = 0.0

    for epoch in range(args.num_epochs):
        model.train()
        epoch_losses = AverageMeter()

        for data in train_dataloader:
            inputs, labels = data

            inputs = inputs.to(device)
            labels = labels.to(device)

            preds = model(inputs)

            loss = criterion(preds, labels)

            epoch_losses.update(loss.item(), len(inputs))

            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

        print('epoch: {}/{} loss={:.6f}'.format(epoch, args.num_epochs - 1, epoch_losses.avg))
        torch.save(model.state_dict(), os.path.join(args.outputs_dir, 'epoch_{}.pth'.format(epoch)))

        model.eval()
        epoch_psnr = AverageMeter()

        for data in eval_dataloader:
            inputs, labels = data

            inputs = inputs.to(device)
            labels = labels.to(device)

            with torch.no_grad():
                preds = model(inputs).clamp(0.0, 1.0)

            epoch_psnr.update(calc_psnr(preds, labels), len(inputs))

        print('eval psnr: {:.2f}'.format(epoch_psnr.avg))

        if epoch_psnr.avg > best_psnr:
            best_epoch = epoch
            best_psnr = epoch_psnr.avg
            best_weights = copy.deepcopy(model.state_dict())

    print('best epoch: {}, psnr: {:.2f}'.format(best_epoch, best_psnr))
    torch.save(best_weights, os.path.join(args.outputs_dir, 'best.pth'))


if __name__ == '__main__':
    np.random.seed(0)
    make_images(os.path.join(WORKDIR, 'T91'), 3, 96, seed=0)
    make_images(os.path.join(WORKDIR, 'Set5'), 2, 72, seed=1)
    # python prepare.py --images-dir T91 --output-path 91-image_x3.h5 --scale 3 --noise-sigma 5
    prepare_main(['--images-dir', os.path.join(WORKDIR, 'T91'), '--output-path', os.path.join(WORKDIR, '91-image_x3.h5'),
                  '--scale', '3', '--noise-sigma', '5'])
    # python prepare.py --images-dir Set5 --output-path Set5_x3.h5 --scale 3 --eval
    prepare_main(['--images-dir', os.path.join(WORKDIR, 'Set5'), '--output-path', os.path.join(WORKDIR, 'Set5_x3.h5'),
                  '--scale', '3', '--eval'])
    train_main(['--train-file', os.path.join(WORKDIR, '91-image_x3.h5'), '--eval-file', os.path.join(WORKDIR, 'Set5_x3.h5'),
                '--outputs-dir', os.path.join(WORKDIR, 'outputs'), '--scale', '3', '--batch-size', '16',
                '--num-epochs', '2', '--num-workers', '0'])

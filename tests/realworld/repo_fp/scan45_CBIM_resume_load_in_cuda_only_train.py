"""CBIM-Medical-Image-Segmentation: the `--resume` loads of `utils.py`, run by a CUDA-only `train.py`

source: https://github.com/yhygao/CBIM-Medical-Image-Segmentation/blob/7c26979a96eb9fe057320e1db38680bae33786b8/utils.py#L44
and #L50 (run by train.py#L78 and train.py#L288)
false-alarm: DG010 at line 42 (`checkpoint = torch.load(args.load)` in resume_load_optimizer_checkpoint); in the
repository the same finding is also made at resume_load_model_checkpoint's load (utils.py#L50), which this one-file
reduction keeps but the engine does not report here (it does with `net.to("cuda")` in place of `net.cuda()`).
The finding says the script also runs on the CPU, but train.py has no CPU path: `net.cuda()` right after
init_network, `nn.CrossEntropyLoss(weight=torch.tensor(args.weight).cuda().float())`, the batches moved with
`.cuda(non_blocking=True)` (or augmented on the GPU), `torch.autocast(device_type='cuda')`. The only
`torch.cuda.is_available()` is the `map_location=device` of the Swin-UNet pretrained-weight loader. The file it
resumes is this script's own `fold_<k>_latest.pth`, saved from the CUDA net, and the script makes only the chosen
GPU visible (`CUDA_VISIBLE_DEVICES=args.gpu`), so on a GPU the tensors come back on `cuda:0`, the net's device. On
the CPU torch 2.13 the model load is the first error (it runs before `net.cuda()`), and with `map_location='cpu'`
the next line, `net.cuda()`, stops it ("Torch not compiled with CUDA enabled"); the optimizer load runs after
`net.cuda()` (2 records in scan 45).
"""
# Reduction: utils.py's two resume helpers and train.py's parser, init_network, train_net and train_epoch in one
# file; get_model is a 2D conv or a stand-in for model/dim2/swin_unet.py's SwinUnet, whose `load_from` (reached
# only with `--pretrain`) keeps the `torch.device('cuda' if torch.cuda.is_available() else 'cpu')` the finding rests
# on; get_dataset is random slices, the yaml config a few argparse defaults; validation, EMA, tensorboard and the
# k-fold loop are dropped. Like the original, this needs a GPU; run it once, then again
# with `--resume --load ./exp/acdc/test/fold_0_latest.pth`.
import argparse
import os

import torch
import torch.nn as nn
from torch.utils import data


def resume_load_optimizer_checkpoint(optimizer, args):
    assert args.load != False, "Please specify the load path with --load"

    checkpoint = torch.load(args.load)
    optimizer.load_state_dict(checkpoint['optimizer_state_dict'])


def resume_load_model_checkpoint(net, ema_net, args):
    assert args.load != False, "Please specify the load path with --load"

    checkpoint = torch.load(args.load)
    net.load_state_dict(checkpoint['model_state_dict'])
    args.start_epoch = checkpoint['epoch']

    if args.ema:
        ema_net.load_state_dict(checkpoint['ema_model_state_dict'])


class SwinUnet(nn.Module):
    def __init__(self, in_chan, num_classes):
        super().__init__()
        self.swin_unet = nn.Conv2d(in_chan, num_classes, 3, padding=1)

    def forward(self, x):
        return self.swin_unet(x)

    def load_from(self, pretrained_path):
        if pretrained_path is not None:
            print("pretrained_path:{}".format(pretrained_path))
            device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
            pretrained_dict = torch.load(pretrained_path, map_location=device)
            pretrained_dict = {k[17:]: v for k, v in pretrained_dict.items()}
            self.swin_unet.load_state_dict(pretrained_dict, strict=False)


def get_model(args, pretrain=False):
    if args.model == 'unet':
        if pretrain:
            raise ValueError('No pretrain model available')
        return nn.Conv2d(1, args.classes, 3, padding=1)
    elif args.model == 'swinunet':
        net = SwinUnet(1, args.classes)
        if pretrain:
            net.load_from('./initmodel/swin_tiny_patch4_window7_224.pth')
        return net


def get_dataset(args):
    img = torch.randn(16, 1, 32, 32)
    label = torch.randint(0, args.classes, (16, 1, 32, 32))
    return data.TensorDataset(img, label)


def train_net(net, args, ema_net=None, fold_idx=0):
    trainset = get_dataset(args)
    trainLoader = data.DataLoader(trainset, batch_size=args.batch_size, shuffle=True,
                                  pin_memory=(args.aug_device != 'gpu'), num_workers=0)
    optimizer = torch.optim.AdamW(net.parameters(), lr=args.base_lr)

    if args.resume:
        resume_load_optimizer_checkpoint(optimizer, args)

    criterion = nn.CrossEntropyLoss(weight=torch.tensor(args.weight).cuda().float())
    scaler = torch.cuda.amp.GradScaler() if args.amp else None

    for epoch in range(args.start_epoch, args.epochs):
        train_epoch(trainLoader, net, optimizer, criterion, scaler, args)
        os.makedirs(f"{args.cp_path}{args.dataset}/{args.unique_name}", exist_ok=True)
        torch.save({
            'epoch': epoch + 1,
            'model_state_dict': net.state_dict(),
            'ema_model_state_dict': None,
            'optimizer_state_dict': optimizer.state_dict(),
        }, f"{args.cp_path}{args.dataset}/{args.unique_name}/fold_{fold_idx}_latest.pth")


def train_epoch(trainLoader, net, optimizer, criterion, scaler, args):
    net.train()
    for i, inputs in enumerate(trainLoader):
        img, label = inputs[0], inputs[1].long()
        if args.aug_device != 'gpu':
            img = img.cuda(non_blocking=True)
            label = label.cuda(non_blocking=True)
        optimizer.zero_grad()
        if args.amp:
            with torch.autocast(device_type='cuda', dtype=torch.float16):
                result = net(img)
                loss = criterion(result, label.squeeze(1))
                scaler.scale(loss).backward()
                scaler.step(optimizer)
                scaler.update()
        else:
            result = net(img)
            loss = criterion(result, label.squeeze(1))
            loss.backward()
            optimizer.step()
        print('loss', loss.item())


def get_parser():
    parser = argparse.ArgumentParser(description='CBIM Medical Image Segmentation')
    parser.add_argument('--dataset', type=str, default='acdc')
    parser.add_argument('--model', type=str, default='unet')
    parser.add_argument('--pretrain', action='store_true')
    parser.add_argument('--amp', action='store_true')
    parser.add_argument('--batch_size', default=4, type=int)
    parser.add_argument('--resume', action='store_true')
    parser.add_argument('--load', type=str, default=False)
    parser.add_argument('--cp_path', type=str, default='./exp/')
    parser.add_argument('--unique_name', type=str, default='test')
    parser.add_argument('--gpu', type=str, default='0')
    args = parser.parse_args()
    # stands in for config/acdc/unet_2d.yaml
    for key, value in {'classes': 4, 'weight': [0.5, 1, 1, 1], 'aug_device': 'cpu', 'base_lr': 0.0005,
                       'epochs': 2, 'start_epoch': 0, 'ema': False}.items():
        setattr(args, key, value)
    return args


def init_network(args):
    net = get_model(args, pretrain=args.pretrain)

    if args.ema:
        ema_net = get_model(args, pretrain=args.pretrain)
        for p in ema_net.parameters():
            p.requires_grad_(False)
    else:
        ema_net = None

    if args.resume:
        resume_load_model_checkpoint(net, ema_net, args)
    return net, ema_net


if __name__ == '__main__':
    args = get_parser()
    os.environ['CUDA_VISIBLE_DEVICES'] = args.gpu

    net, ema_net = init_network(args)
    net.cuda()
    if args.ema:
        ema_net.cuda()
    train_net(net, args, ema_net, fold_idx=0)

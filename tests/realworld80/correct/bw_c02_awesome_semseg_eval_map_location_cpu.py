"""The awesome-semantic-segmentation-pytorch FCN16s DDP training and CPU evaluation of bw02 (Tramac/awesome-semantic-segmentation-pytorch #213) with the load the error message asks for: get_fcn16s reads the checkpoint with map_location=torch.device("cpu") and the Evaluator moves the model to args.device afterwards, so eval.py runs on the CPU-only machine; the local_rank still passed down from argparse, the rank-0 save of model.module.state_dict() and the int64 masks fed to cross_entropy are kept
source: https://github.com/Tramac/awesome-semantic-segmentation-pytorch/issues/213
reported-error: "Got the training to run successfully. When I tried to run the eval.py file ... fcn.py, line 186, in get_fcn16s: model.load_state_dict(torch.load(get_model_file(...), map_location=device)) ... RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False"
outcome: ok
root-cause: -
expect: none
"""
import argparse
import os
import tempfile

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

NUM_CLASS = 5
WORLD_SIZE = 2


def parse_args(argv):
    parser = argparse.ArgumentParser(description="Semantic Segmentation Training With Pytorch")
    parser.add_argument("--model", type=str, default="fcn16s")
    parser.add_argument("--backbone", type=str, default="vgg16")
    parser.add_argument("--dataset", type=str, default="pascal_voc")
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--lr", type=float, default=1e-2)
    parser.add_argument("--no-cuda", action="store_true", default=False)
    parser.add_argument("--local_rank", type=int, default=0)
    parser.add_argument("--save-dir", default="~/.torch/models")
    return parser.parse_args(argv)


def vgg_features():
    cfg = [16, "M", 32, "M", 64, "M", 64, "M", 64, "M"]
    layers, c_in = [], 3
    for v in cfg:
        if v == "M":
            layers.append(nn.MaxPool2d(2, 2))
        else:
            layers += [nn.Conv2d(c_in, v, 3, padding=1), nn.ReLU(inplace=True)]
            c_in = v
    return nn.Sequential(*layers)


class _FCNHead(nn.Module):
    def __init__(self, in_channels, channels, norm_layer=nn.BatchNorm2d):
        super().__init__()
        inter_channels = in_channels // 4
        self.block = nn.Sequential(
            nn.Conv2d(in_channels, inter_channels, 3, padding=1, bias=False), norm_layer(inter_channels),
            nn.ReLU(inplace=True), nn.Dropout(0.1), nn.Conv2d(inter_channels, channels, 1))

    def forward(self, x):
        return self.block(x)


class FCN16s(nn.Module):
    def __init__(self, nclass, norm_layer=nn.BatchNorm2d, **kwargs):
        super().__init__()
        self.pretrained = vgg_features()
        self.pool4 = nn.Sequential(*self.pretrained[:10])
        self.pool5 = nn.Sequential(*self.pretrained[10:])
        self.head = _FCNHead(64, nclass, norm_layer)
        self.score_pool4 = nn.Conv2d(64, nclass, 1)

    def forward(self, x):
        pool4 = self.pool4(x)
        pool5 = self.pool5(pool4)
        score_fr = self.head(pool5)
        score_pool4 = self.score_pool4(pool4)
        upscore2 = F.interpolate(score_fr, score_pool4.size()[2:], mode="bilinear", align_corners=True)
        out = F.interpolate(upscore2 + score_pool4, x.size()[2:], mode="bilinear", align_corners=True)
        return (out,)


def get_model_file(name, root="~/.torch/models"):
    file_path = os.path.join(os.path.expanduser(root), name + ".pth")
    if os.path.exists(file_path):
        return file_path
    raise ValueError("Model file is not found. Downloading or trainning.")


def get_fcn16s(dataset="pascal_voc", backbone="vgg16", pretrained=False, root="~/.torch/models", **kwargs):
    model = FCN16s(NUM_CLASS, **kwargs)
    if pretrained:
        device = torch.device("cpu")
        model.load_state_dict(torch.load(get_model_file("fcn16s_%s_%s" % (backbone, dataset), root=root),
                              map_location=device))
    return model


def make_dataset(n, seed):
    """Images of coloured squares on noise; the mask is the square's class (0 = background)."""
    g = torch.Generator().manual_seed(seed)
    images = 0.3 * torch.randn(n, 3, 32, 32, generator=g)
    masks = torch.zeros(n, 32, 32, dtype=torch.long)
    for i in range(n):
        c = int(torch.randint(1, NUM_CLASS, (1,), generator=g))
        r, s = torch.randint(0, 16, (2,), generator=g).tolist()
        images[i, c % 3, r:r + 16, s:s + 16] += 1.0 + 0.5 * c
        masks[i, r:r + 16, s:s + 16] = c
    return TensorDataset(images, masks)


def save_checkpoint(model, args):
    directory = os.path.expanduser(args.save_dir)
    os.makedirs(directory, exist_ok=True)
    filename = os.path.join(directory, "{}_{}_{}.pth".format(args.model, args.backbone, args.dataset))
    if args.distributed:
        model = model.module
    torch.save(model.state_dict(), filename)


def train_worker(rank, args, init_file):
    torch.set_num_threads(1)
    args.local_rank = rank
    dist.init_process_group(backend="gloo", init_method="file://" + init_file, rank=rank, world_size=args.num_gpus)
    torch.manual_seed(0)
    train_set = make_dataset(96, seed=1)
    loader = DataLoader(train_set, batch_size=args.batch_size,
                        sampler=DistributedSampler(train_set, shuffle=True), drop_last=True)
    model = FCN16s(NUM_CLASS, norm_layer=nn.BatchNorm2d)  # the repo picks SyncBatchNorm, a GPU-only layer
    model = nn.parallel.DistributedDataParallel(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    for epoch in range(args.epochs):
        loader.sampler.set_epoch(epoch)
        for images, targets in loader:
            loss = F.cross_entropy(model(images)[0], targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        if rank == 0:
            print(f"epoch {epoch}: loss {loss.item():.4f}", flush=True)
    if rank == 0:
        save_checkpoint(model, args)
    dist.barrier()
    dist.destroy_process_group()


class Evaluator:
    def __init__(self, args):
        self.args = args
        self.device = torch.device(args.device)
        self.val_loader = DataLoader(make_dataset(16, seed=2), batch_size=1)
        self.model = get_fcn16s(dataset=args.dataset, backbone=args.backbone, pretrained=True, root=args.save_dir,
                                local_rank=args.local_rank, norm_layer=nn.BatchNorm2d).to(self.device)

    def eval(self):
        self.model.eval()
        correct = labeled = 0
        for image, target in self.val_loader:
            with torch.no_grad():
                outputs = self.model(image.to(self.device))
            pred = torch.argmax(outputs[0], 1)
            correct += (pred == target).sum().item()
            labeled += target.numel()
        print(f"validation pixAcc: {100.0 * correct / labeled:.2f}")


if __name__ == "__main__":
    save_dir = tempfile.mkdtemp()
    # `python -m torch.distributed.launch --nproc_per_node=2 train.py ...` (gloo on this CPU machine)
    train_args = parse_args(["--save-dir", save_dir])
    train_args.num_gpus = WORLD_SIZE
    train_args.distributed = train_args.num_gpus > 1
    mp.spawn(train_worker, args=(train_args, os.path.join(save_dir, "dist_init")), nprocs=WORLD_SIZE)

    # `python eval.py --model fcn16s --backbone vgg16 --dataset pascal_voc` on the same CPU-only machine
    args = parse_args(["--save-dir", save_dir])
    num_gpus = int(os.environ["WORLD_SIZE"]) if "WORLD_SIZE" in os.environ else 1
    args.distributed = num_gpus > 1
    if not args.no_cuda and torch.cuda.is_available():
        args.device = "cuda"
    else:
        args.distributed = False
        args.device = "cpu"
    evaluator = Evaluator(args)
    evaluator.eval()

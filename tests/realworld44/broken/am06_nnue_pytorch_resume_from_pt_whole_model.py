"""Chess evaluation network training with nnue-pytorch (official-stockfish/nnue-pytorch: serialize.py converts a .nnue net into a .pt file with torch.save(nnue, args.target), train.py --resume-from-model initialises training from that .pt with torch.load(args.resume_from_model); model.py's NNUE with its feature transformer and layer stacks), the state fixed by pull request #305: the .pt file is a whole pickled NNUE module, and on torch 2.6+ train.py's torch.load runs under the weights_only=True default and refuses it
source: https://github.com/official-stockfish/nnue-pytorch/pull/305
reported-error: "Fix Weights Loading Torch": In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` from `False` to `True` ... (the pull request passes weights_only=False in serialize.py, train.py and the visualizers)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL __main__.NNUE was not an allowed global by default. ... at line 178
root-cause: line 134
expect: DG011
"""
import argparse
import os
import struct
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

# ---- model.py (reduced: HalfKP-like sparse input as an EmbeddingBag feature transformer, one layer stack)
L1 = 64
L2 = 15
L3 = 32


class FeatureSet:
    def __init__(self, name, num_features):
        self.name = name
        self.num_real_features = num_features
        self.num_virtual_features = 0
        self.num_features = num_features


def get_feature_set_from_name(name):
    return FeatureSet(name, 768)


class NNUE(nn.Module):
    def __init__(self, feature_set, start_lambda=1.0, end_lambda=1.0, max_epoch=800, gamma=0.992, lr=8.75e-4,
                 param_index=0):
        super().__init__()
        self.feature_set = feature_set
        self.input = nn.EmbeddingBag(feature_set.num_features, L1, mode="sum")
        self.input_bias = nn.Parameter(torch.zeros(L1))
        self.l1 = nn.Linear(2 * L1, L2 + 1)
        self.l2 = nn.Linear(L2 * 2, L3)
        self.output = nn.Linear(L3, 1)
        self.start_lambda = start_lambda
        self.end_lambda = end_lambda
        self.max_epoch = max_epoch
        self.gamma = gamma
        self.lr = lr
        self.param_index = param_index
        self.nnue2score = 600.0

    def set_feature_set(self, new_feature_set):
        if self.feature_set.name == new_feature_set.name:
            return
        raise Exception('Cannot change feature set from {} to {}.'.format(self.feature_set.name, new_feature_set.name))

    def forward(self, us, them, white_indices, black_indices):
        w = self.input(white_indices) + self.input_bias
        b = self.input(black_indices) + self.input_bias
        l0_ = (us * torch.cat([w, b], dim=1)) + (them * torch.cat([b, w], dim=1))
        l0_ = torch.clamp(l0_, 0.0, 1.0)
        l1x = self.l1(l0_)
        l1x_, l1x_out = l1x.split(L2, dim=1)
        l1x_ = torch.clamp(torch.cat([torch.pow(l1x_, 2.0) * (127 / 128), l1x_], dim=1), 0.0, 1.0)
        l2x_ = torch.clamp(self.l2(l1x_), 0.0, 1.0)
        return self.output(l2x_) + l1x_out

    def step_(self, batch, epoch):
        us, them, white_indices, black_indices, outcome, score = batch
        scorenet = self(us, them, white_indices, black_indices) * self.nnue2score
        q = (scorenet / 410.0).sigmoid()
        t = outcome
        p = (score / 410.0).sigmoid()
        actual_lambda = self.start_lambda + (self.end_lambda - self.start_lambda) * (epoch / self.max_epoch)
        pt = p * actual_lambda + t * (1.0 - actual_lambda)
        return torch.pow(torch.abs(pt - q), 2.5).mean()


# ---- serialize.py (reduced: a flat little-endian float net file stands in for the quantised .nnue format)
VERSION = 0x7AF32F20


class NNUEWriter:
    def __init__(self, model, description=None):
        self.buf = bytearray(struct.pack("<I", VERSION))
        for p in model.state_dict().values():
            self.buf.extend(p.detach().cpu().numpy().astype("<f4").tobytes())


class NNUEReader:
    def __init__(self, f, feature_set):
        self.f = f
        self.feature_set = feature_set
        self.model = NNUE(feature_set)
        self.description = "converted from .nnue"
        self.read_int32(VERSION)
        with torch.no_grad():
            for p in self.model.state_dict().values():
                n = p.numel()
                p.copy_(torch.from_numpy(np.frombuffer(self.f.read(4 * n), dtype="<f4").copy()).view_as(p))

    def read_int32(self, expected=None):
        v = struct.unpack("<I", self.f.read(4))[0]
        if expected is not None and v != expected:
            raise Exception("Expected: %x, got %x" % (expected, v))
        return v


def serialize_main(argv):
    parser = argparse.ArgumentParser(description="Converts files between ckpt and nnue format.")
    parser.add_argument("source", help="Source file (can be .ckpt, .pt or .nnue)")
    parser.add_argument("target", help="Target file (can be .pt or .nnue)")
    parser.add_argument("--description", default=None, type=str, dest='description')
    parser.add_argument("--features", default="HalfKAv2_hm", type=str)
    args = parser.parse_args(argv)

    feature_set = get_feature_set_from_name(args.features)
    print('Converting %s to %s' % (args.source, args.target))

    if args.source.endswith('.pt'):
        nnue = torch.load(args.source)
    elif args.source.endswith('.nnue'):
        with open(args.source, 'rb') as f:
            reader = NNUEReader(f, feature_set)
            nnue = reader.model
            if args.description is None:
                args.description = reader.description
    else:
        raise Exception('Invalid network input format.')

    if args.target.endswith('.pt'):
        torch.save(nnue, args.target)  # root-cause
    elif args.target.endswith('.nnue'):
        writer = NNUEWriter(nnue, args.description)
        with open(args.target, 'wb') as f:
            f.write(writer.buf)
    else:
        raise Exception('Invalid network output format.')


# ---- train.py (reduced: a synthetic batch stream stands in for the C++ binpack data loader, and a plain loop
# for the pytorch-lightning Trainer)
def make_batch(feature_set, batch_size, rng):
    us = torch.from_numpy(rng.integers(0, 2, size=(batch_size, 1)).astype(np.float32))
    them = 1.0 - us
    white_indices = torch.from_numpy(rng.integers(0, feature_set.num_features, size=(batch_size, 30)))
    black_indices = torch.from_numpy(rng.integers(0, feature_set.num_features, size=(batch_size, 30)))
    outcome = torch.from_numpy(rng.integers(0, 3, size=(batch_size, 1)).astype(np.float32)) / 2.0
    score = torch.from_numpy(rng.normal(0, 300, size=(batch_size, 1)).astype(np.float32))
    return us, them, white_indices, black_indices, outcome, score


def train_main(argv):
    parser = argparse.ArgumentParser(description="Trains the network.")
    parser.add_argument("datasets", nargs='+')
    parser.add_argument("--lambda", default=1.0, type=float, dest='lambda_')
    parser.add_argument("--start-lambda", default=None, type=float, dest='start_lambda')
    parser.add_argument("--end-lambda", default=None, type=float, dest='end_lambda')
    parser.add_argument("--gamma", default=0.992, type=float, dest='gamma')
    parser.add_argument("--lr", default=8.75e-4, type=float, dest='lr')
    parser.add_argument("--max_epochs", default=None, type=int)
    parser.add_argument("--batch-size", default=-1, type=int, dest='batch_size')
    parser.add_argument("--resume-from-model", dest='resume_from_model')
    parser.add_argument("--param-index", type=int, default=0, dest='param_index')
    parser.add_argument("--features", default="HalfKAv2_hm", type=str)
    args = parser.parse_args(argv)

    feature_set = get_feature_set_from_name(args.features)
    start_lambda = args.start_lambda or args.lambda_
    end_lambda = args.end_lambda or args.lambda_
    max_epoch = args.max_epochs or 800
    if args.resume_from_model is None:
        nnue = NNUE(feature_set=feature_set, start_lambda=start_lambda, max_epoch=max_epoch, end_lambda=end_lambda,
                    gamma=args.gamma, lr=args.lr, param_index=args.param_index)
    else:
        nnue = torch.load(args.resume_from_model)  # fails-here
        nnue.set_feature_set(feature_set)
        nnue.start_lambda = start_lambda
        nnue.end_lambda = end_lambda
        nnue.max_epoch = max_epoch
        nnue.gamma = args.gamma
        nnue.lr = args.lr
        nnue.param_index = args.param_index

    print("Feature set: {}".format(feature_set.name))
    print("Num features: {}".format(feature_set.num_features))
    batch_size = args.batch_size if args.batch_size > 0 else 16384
    rng = np.random.default_rng(42)
    optimizer = torch.optim.Adam(nnue.parameters(), lr=nnue.lr)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=nnue.gamma)
    for epoch in range(max_epoch):
        for _ in range(4):
            loss = nnue.step_(make_batch(feature_set, batch_size, rng), epoch)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        scheduler.step()
        print("epoch {} loss {:.5f}".format(epoch, loss.item()))
    return nnue


if __name__ == "__main__":
    torch.manual_seed(0)
    workdir = tempfile.mkdtemp()
    # an existing net (e.g. the master net of a previous run) in .nnue form
    net_path = os.path.join(workdir, "nn-previous.nnue")
    with open(net_path, "wb") as f:
        f.write(NNUEWriter(NNUE(get_feature_set_from_name("HalfKAv2_hm"))).buf)
    open(os.path.join(workdir, "training_data.binpack"), "wb").close()

    # python serialize.py nn-previous.nnue nn-previous.pt
    serialize_main([net_path, os.path.join(workdir, "nn-previous.pt")])
    # python train.py training_data.binpack --resume-from-model nn-previous.pt --max_epochs 2 --batch-size 64
    train_main([os.path.join(workdir, "training_data.binpack"), "--resume-from-model",
                os.path.join(workdir, "nn-previous.pt"), "--max_epochs", "2", "--batch-size", "64",
                "--start-lambda", "1.0", "--end-lambda", "0.75"])

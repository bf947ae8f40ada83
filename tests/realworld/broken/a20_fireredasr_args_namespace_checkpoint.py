"""ASR package saved as {"args": Namespace, "model_state_dict": ...}; loading it under the weights_only default fails
source: https://github.com/FireRedTeam/FireRedASR/issues/20
reported-error: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL argparse.Namespace was not an allowed global by default.
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL argparse.Namespace was not an allowed global by default. ... at line 37
root-cause: line 37
expect: DG011
"""
import argparse
import os
import tempfile

import torch
import torch.nn as nn


class FireRedAsrAed(nn.Module):
    @classmethod
    def from_args(cls, args):
        return cls(args.idim, args.odim, args.d_model)

    def __init__(self, idim, odim, d_model):
        super().__init__()
        self.encoder = nn.Linear(idim, d_model)
        self.decoder = nn.Linear(d_model, odim)

    def forward(self, feats):
        return self.decoder(torch.relu(self.encoder(feats)))


def save_package(path):
    args = argparse.Namespace(idim=80, odim=100, d_model=32, n_layers_enc=2)
    model = FireRedAsrAed.from_args(args)
    torch.save({"args": args, "model_state_dict": model.state_dict()}, path)


def load_fireredasr_aed_model(model_path):
    package = torch.load(model_path, map_location=lambda storage, loc: storage)  # root-cause # fails-here
    print("model args:", package["args"])
    model = FireRedAsrAed.from_args(package["args"])
    model.load_state_dict(package["model_state_dict"], strict=True)
    return model


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_dir", default=tempfile.mkdtemp())
    parser.add_argument("--use_gpu", type=int, default=0)
    args = parser.parse_args()
    model_path = os.path.join(args.model_dir, "model.pth.tar")
    save_package(model_path)
    model = load_fireredasr_aed_model(model_path)
    if args.use_gpu and torch.cuda.is_available():
        model.cuda()
    model.eval()
    with torch.no_grad():
        print(model(torch.randn(1, 20, 80)).argmax(-1))

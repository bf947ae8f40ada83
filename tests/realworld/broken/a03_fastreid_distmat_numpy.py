"""Re-ID visualisation: distance matrix computed on the GPU is converted with .numpy()
source: https://github.com/JDAI-CV/fast-reid/pull/509
reported-error: TypeError: can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.
outcome: cuda-only: TypeError: can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first. at line 53; on CPU: ok
root-cause: line 53
expect: DG009
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def get_parser():
    parser = argparse.ArgumentParser(description="Feature extraction with reid models")
    parser.add_argument("--num-query", type=int, default=6)
    parser.add_argument("--num-gallery", type=int, default=12)
    parser.add_argument("--max-rank", type=int, default=5)
    return parser


class Predictor:
    def __init__(self):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 16))
        self.model.eval()
        self.model.to(self.device)

    def __call__(self, images):
        with torch.no_grad():
            return self.model(images.to(self.device))


def build_distmat(q_feat, g_feat):
    q_feat = F.normalize(q_feat, dim=1)
    g_feat = F.normalize(g_feat, dim=1)
    return 1 - torch.mm(q_feat, g_feat.t())


if __name__ == "__main__":
    args = get_parser().parse_args()
    predictor = Predictor()
    feats = []
    for _ in range(args.num_query + args.num_gallery):
        feats.append(predictor(torch.rand(1, 3, 32, 16)))
    feats = torch.cat(feats, dim=0)
    q_feat = feats[:args.num_query]
    g_feat = feats[args.num_query:]

    distmat = build_distmat(q_feat, g_feat)
    distmat = distmat.numpy()  # root-cause # fails-here
    indices = np.argsort(distmat, axis=1)
    print(indices[:, :args.max_rank])

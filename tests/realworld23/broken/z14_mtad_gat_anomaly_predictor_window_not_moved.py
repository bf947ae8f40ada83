"""Multivariate time-series anomaly detection (MTAD-GAT layout): the model is moved to the GPU in main, but Predictor.get_score builds each sliding window with torch.from_numpy(...).float() and never moves it, so the first Conv1d of the feature-extraction layer sees a CPU input on a CUDA machine
source: https://github.com/ML4ITS/mtad-gat-pytorch/issues/23
reported-error: Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same (happens when either your model is on the GPU but your data are not, or the other way around)
outcome: cuda-only: RuntimeError: Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same or input should be a MKLDNN tensor and weight is a dense tensor (the window stays on the CPU; not run on a GPU for this set) at line 26; on CPU: ok
root-cause: line 54
expect: DG009
"""
import argparse

import numpy as np
import pandas as pd
import torch
import torch.nn as nn


# ---- modules.py
class ConvLayer(nn.Module):
    def __init__(self, n_features, kernel_size=7):
        super().__init__()
        self.padding = nn.ConstantPad1d((kernel_size - 1) // 2, 0.0)
        self.conv = nn.Conv1d(n_features, n_features, kernel_size)

    def forward(self, x):
        x = x.permute(0, 2, 1)
        x = self.padding(x)
        x = torch.relu(self.conv(x))  # fails-here
        return x.permute(0, 2, 1)


class MTAD_GAT(nn.Module):
    def __init__(self, n_features, window_size, hidden=16):
        super().__init__()
        self.conv = ConvLayer(n_features)
        self.feature_attn = nn.Linear(window_size, window_size)
        self.gru = nn.GRU(2 * n_features, hidden, batch_first=True)
        self.forecast = nn.Linear(hidden, n_features)

    def forward(self, x):
        x = self.conv(x)
        h_feat = torch.softmax(self.feature_attn(x.transpose(1, 2)), -1).transpose(1, 2) * x
        _, h = self.gru(torch.cat([x, h_feat], dim=2))
        return self.forecast(h[-1])


# ---- prediction.py
class Predictor:
    def __init__(self, model, window_size, device):
        self.model, self.window_size, self.device = model, window_size, device

    def get_score(self, values):
        preds, actual = [], []
        with torch.no_grad():
            for i in range(self.window_size, len(values)):
                x = torch.from_numpy(values[i - self.window_size:i][None]).float()  # root-cause
                preds.append(self.model(x).cpu().numpy()[0])
                actual.append(values[i])
        return np.sqrt(((np.array(preds) - np.array(actual)) ** 2).sum(1))


def main(args):
    device = torch.device("cuda" if args.use_cuda and torch.cuda.is_available() else "cpu")
    rng = np.random.default_rng(0)
    df = pd.DataFrame(np.sin(np.arange(120)[:, None] / 7.0 + rng.random(5)) + 0.05 * rng.normal(size=(120, 5)))
    df.iloc[90:93] += 3.0
    values = ((df - df.mean()) / df.std()).to_numpy(dtype=np.float32)
    model = MTAD_GAT(values.shape[1], args.lookback).to(device).eval()
    scores = Predictor(model, args.lookback, device).get_score(values)
    print("top anomaly index", int(np.argmax(scores)) + args.lookback)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--lookback", type=int, default=20)
    parser.add_argument("--use_cuda", type=bool, default=True)
    torch.manual_seed(0)
    main(parser.parse_args([]))

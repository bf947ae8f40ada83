"""Time-series forecasting with an LLM reprogramming model (Time-LLM run_main.py layout): after building the model with .float(), the script casts it with model.to(torch.bfloat16) to fit the LLM in memory, but the Dataset_ETT batches stay float32 (batch_x.float()), so the first patch-embedding Linear receives float32 activations
source: https://github.com/KimMeen/Time-LLM/issues/3
reported-error: RuntimeError: expected scalar type Float but found BFloat16 (run_main.py with model = model.to(torch.bfloat16) and float32 batch_x)
outcome: RuntimeError: expected m1 and m2 to have the same dtype, but got: float != c10::BFloat16 at line 40
root-cause: line 66
expect: DG004
"""
import argparse

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class Dataset_ETT_hour(Dataset):
    def __init__(self, seq_len=96, pred_len=24):
        t = np.arange(2000)
        df = pd.DataFrame({"HUFL": np.sin(t / 24), "HULL": np.cos(t / 24), "OT": np.sin(t / 12) + 0.1 * np.random.randn(2000)})
        self.data_x = df.values
        self.seq_len, self.pred_len = seq_len, pred_len

    def __len__(self):
        return len(self.data_x) - self.seq_len - self.pred_len

    def __getitem__(self, i):
        s, e = i, i + self.seq_len
        return self.data_x[s:e], self.data_x[e:e + self.pred_len]


class PatchEmbedding(nn.Module):
    def __init__(self, d_model, patch_len, stride):
        super().__init__()
        self.patch_len, self.stride = patch_len, stride
        self.value_embedding = nn.Linear(patch_len, d_model, bias=False)

    def forward(self, x):
        x = x.unfold(dimension=-1, size=self.patch_len, step=self.stride)
        return self.value_embedding(x)  # fails-here


class TimeLLM(nn.Module):
    def __init__(self, configs):
        super().__init__()
        self.patch_embedding = PatchEmbedding(configs.d_model, 16, 8)
        self.llm = nn.TransformerEncoder(nn.TransformerEncoderLayer(configs.d_model, 4, 64, batch_first=True), 1)
        self.output_projection = nn.Linear(configs.d_model * 11, configs.pred_len)

    def forward(self, x_enc):
        B, T, N = x_enc.shape
        x = x_enc.permute(0, 2, 1).reshape(B * N, T)
        enc = self.llm(self.patch_embedding(x))
        out = self.output_projection(enc.reshape(B * N, -1))
        return out.reshape(B, N, -1).permute(0, 2, 1)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Time-LLM")
    parser.add_argument("--d_model", type=int, default=32)
    parser.add_argument("--pred_len", type=int, default=24)
    parser.add_argument("--batch_size", type=int, default=8)
    args = parser.parse_args([])
    train_loader = DataLoader(Dataset_ETT_hour(pred_len=args.pred_len), batch_size=args.batch_size, shuffle=False)
    model = TimeLLM(args).float()
    model = model.to(torch.bfloat16)  # root-cause
    model_optim = torch.optim.Adam(model.parameters(), lr=1e-3)
    criterion = nn.MSELoss()
    for i, (batch_x, batch_y) in enumerate(train_loader):
        batch_x = batch_x.float()
        batch_y = batch_y.float()
        outputs = model(batch_x)
        loss = criterion(outputs, batch_y)
        model_optim.zero_grad()
        loss.backward()
        model_optim.step()
        if i == 2:
            break
    print("loss", loss.item())

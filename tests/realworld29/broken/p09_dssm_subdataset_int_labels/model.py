import torch
import torch.nn as nn


class Tower(nn.Module):
    def __init__(self, d_in, d_out=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 64), nn.Tanh(), nn.Linear(64, d_out), nn.Tanh())

    def forward(self, x):
        return self.net(x)


class DSSM(nn.Module):
    def __init__(self, d_in, n_grades):
        super().__init__()
        self.query_tower = Tower(d_in)
        self.doc_tower = Tower(d_in)
        self.head = nn.Linear(3 * 32, n_grades)

    def forward(self, q, d):
        hq, hd = self.query_tower(q), self.doc_tower(d)
        return self.head(torch.cat([hq, hd, hq * hd], dim=1))

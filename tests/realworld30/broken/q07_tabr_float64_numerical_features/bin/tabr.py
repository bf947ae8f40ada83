import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, *, n_num_features, n_classes, d_main, context_size):
        super().__init__()
        self.context_size = context_size
        self.linear = nn.Linear(n_num_features, d_main)
        self.blocks0 = nn.Sequential(nn.LayerNorm(d_main), nn.Linear(d_main, d_main), nn.ReLU())
        self.normalization = nn.LayerNorm(d_main)
        self.K = nn.Linear(d_main, d_main)
        self.label_encoder = nn.Embedding(n_classes, d_main)
        self.T = nn.Sequential(nn.Linear(d_main, d_main), nn.ReLU(), nn.Linear(d_main, d_main, bias=False))
        self.head = nn.Sequential(nn.LayerNorm(d_main), nn.ReLU(), nn.Linear(d_main, n_classes))

    def _encode(self, x_num):
        x = self.linear(x_num)  # fails-here
        x = x + self.blocks0(x)
        k = self.K(self.normalization(x))
        return x, k

    def forward(self, *, x_, candidate_x_, candidate_y, is_train):
        x, k = self._encode(x_)
        with torch.no_grad():
            _, candidate_k = self._encode(candidate_x_)
        distances = -torch.cdist(k, candidate_k) ** 2
        if is_train:
            distances = distances[:, : candidate_k.shape[0]]
        context_distances, context_idx = distances.topk(self.context_size, dim=-1)
        probs = torch.softmax(context_distances, dim=-1)
        context_k = candidate_k[context_idx]
        values = self.label_encoder(candidate_y[context_idx]) + self.T(k[:, None] - context_k)
        x = x + (probs[:, None] @ values).squeeze(1)
        return self.head(x)

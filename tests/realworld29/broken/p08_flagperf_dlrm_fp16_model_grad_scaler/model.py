import torch
import torch.nn as nn


class DLRM(nn.Module):
    def __init__(self, num_embeddings, embedding_dim, dense_features, n_tables=3):
        super().__init__()
        self.bottom_mlp = nn.Sequential(nn.Linear(dense_features, 32), nn.ReLU(), nn.Linear(32, embedding_dim))
        self.embeddings = nn.ModuleList([nn.Embedding(num_embeddings, embedding_dim) for _ in range(n_tables)])
        n_feat = n_tables + 1
        self.top_mlp = nn.Sequential(nn.Linear(embedding_dim + n_feat * (n_feat - 1) // 2, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, dense, sparse):
        x = self.bottom_mlp(dense)
        feats = torch.stack([x] + [emb(sparse[:, i]) for i, emb in enumerate(self.embeddings)], dim=1)
        inter = feats @ feats.transpose(1, 2)
        iu = torch.triu_indices(feats.shape[1], feats.shape[1], offset=1)
        z = torch.cat([x, inter[:, iu[0], iu[1]]], dim=1)
        return self.top_mlp(z).squeeze(1)

"""Knowledge-tracing training script that makes CUDA the default tensor type when a GPU is present, then builds a shuffling DataLoader with the default CPU generator
source: https://github.com/hcnoh/knowledge-tracing-collection-pytorch/issues/8
reported-error: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu'
outcome: cuda-only: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (raised inside RandomSampler.__iter__) at line 53; on CPU: ok (the if-branch does not run)
root-cause: line 16
expect: DG003
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

if torch.cuda.is_available():
    torch.set_default_tensor_type(torch.cuda.FloatTensor)  # root-cause


class ASSIST2009(Dataset):
    def __init__(self, seq_len=20, num_users=32, num_q=10):
        rng = np.random.default_rng(0)
        self.q_seqs = rng.integers(0, num_q, size=(num_users, seq_len))
        self.r_seqs = rng.integers(0, 2, size=(num_users, seq_len))
        self.num_q = num_q

    def __len__(self):
        return len(self.q_seqs)

    def __getitem__(self, index):
        return self.q_seqs[index], self.r_seqs[index]


def collate_fn(batch):
    q = torch.tensor(np.stack([b[0] for b in batch]), dtype=torch.long)
    r = torch.tensor(np.stack([b[1] for b in batch]), dtype=torch.long)
    return q, r


class DKT(nn.Module):
    def __init__(self, num_q, emb_size=16, hidden_size=16):
        super().__init__()
        self.num_q = num_q
        self.interaction_emb = nn.Embedding(num_q * 2, emb_size)
        self.lstm_layer = nn.LSTM(emb_size, hidden_size, batch_first=True)
        self.out_layer = nn.Linear(hidden_size, num_q)

    def forward(self, q, r):
        h, _ = self.lstm_layer(self.interaction_emb(q + self.num_q * r))
        return torch.sigmoid(self.out_layer(h))

    def train_model(self, train_loader, num_epochs, opt):
        for i in range(num_epochs):
            for q, r in train_loader:  # fails-here
                y = self(q, r)
                y = torch.gather(y[:, :-1], -1, q[:, 1:].unsqueeze(-1)).squeeze(-1)
                loss = nn.functional.binary_cross_entropy(y, r[:, 1:].float())
                opt.zero_grad()
                loss.backward()
                opt.step()
            print("Epoch: {},   Loss: {:.4f}".format(i, loss.item()))


def main(model_name="dkt", dataset_name="ASSIST2009"):
    dataset = ASSIST2009()
    train_loader = DataLoader(dataset, batch_size=8, shuffle=True, collate_fn=collate_fn)
    model = DKT(dataset.num_q)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    model.train_model(train_loader, 2, opt)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_name", type=str, default="dkt")
    parser.add_argument("--dataset_name", type=str, default="ASSIST2009")
    args = parser.parse_args()
    main(args.model_name, args.dataset_name)

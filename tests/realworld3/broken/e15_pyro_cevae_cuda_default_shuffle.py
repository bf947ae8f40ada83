"""pyro CEVAE: tensors made on a global CUDA default, DataLoader(shuffle=True) without a CUDA generator
source: https://github.com/pyro-ppl/pyro/pull/3264
reported-error: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu'
outcome: cuda-only: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' at line 34 (when the RandomSampler runs); on CPU: ok
root-cause: line 31
expect: DG003
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def generate_data(args):
    z = torch.bernoulli(0.5 * torch.ones(args.num_data))
    x = torch.normal(z, 5 * z + 3 * (1 - z)).expand(args.feature_dim, -1).t()
    t = torch.bernoulli(0.75 * z + 0.25 * (1 - z))
    y = torch.bernoulli(torch.sigmoid(3 * (z + 2 * (2 * t - 1))))
    return x, t, y


class CEVAE(nn.Module):
    def __init__(self, feature_dim, latent_dim=4):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(feature_dim + 2, 16), nn.ELU(), nn.Linear(16, latent_dim))
        self.decoder = nn.Linear(latent_dim + 1, 1)

    def fit(self, x, t, y, num_epochs=2, batch_size=32, learning_rate=1e-3):
        dataset = TensorDataset(x, t, y)
        dataloader = DataLoader(dataset, batch_size=batch_size, shuffle=True)  # root-cause
        optim = torch.optim.Adam(self.parameters(), lr=learning_rate)
        for epoch in range(num_epochs):
            for x_b, t_b, y_b in dataloader:  # fails-here
                z = self.encoder(torch.cat([x_b, t_b[:, None], y_b[:, None]], -1))
                logits = self.decoder(torch.cat([z, t_b[:, None]], -1)).squeeze(-1)
                loss = nn.functional.binary_cross_entropy_with_logits(logits, y_b)
                optim.zero_grad()
                loss.backward()
                optim.step()
            print("epoch", epoch, "loss", loss.item())


def main(args):
    if args.cuda:
        torch.set_default_device("cuda")
    x_train, t_train, y_train = generate_data(args)
    cevae = CEVAE(args.feature_dim)
    cevae.fit(x_train, t_train, y_train, num_epochs=args.num_epochs, batch_size=args.batch_size)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Causal Effect Variational Autoencoder")
    parser.add_argument("--num-data", default=256, type=int)
    parser.add_argument("--feature-dim", default=5, type=int)
    parser.add_argument("-n", "--num-epochs", default=2, type=int)
    parser.add_argument("-b", "--batch-size", default=64, type=int)
    parser.add_argument("--cuda", action="store_true", default=torch.cuda.is_available())
    main(parser.parse_args([]))

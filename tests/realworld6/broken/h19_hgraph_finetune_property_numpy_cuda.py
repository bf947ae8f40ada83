"""Property-guided fine-tuning of a molecule generator (hgraph2graph style): decoded samples are scored by a property predictor on the GPU and the scores go to NumPy without .cpu()
source: https://github.com/wengong-jin/hgraph2graph/pull/35
reported-error: TypeError: can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.
outcome: cuda-only: TypeError: can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first. at line 62; on CPU: ok
root-cause: line 62
expect: DG009
"""
import argparse
import random

import numpy as np
import torch
import torch.nn as nn


class HierVAE(nn.Module):
    def __init__(self, vocab_size=40, hidden=32, latent=8, max_len=12):
        super().__init__()
        self.latent_size, self.max_len = latent, max_len
        self.decoder = nn.GRU(latent, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab_size)

    def sample(self, batch_size, greedy=True):
        z = torch.randn(batch_size, self.max_len, self.latent_size, device=self.out.weight.device)
        h, _ = self.decoder(z)
        return self.out(h).argmax(-1)


class PropertyPredictor(nn.Module):
    def __init__(self, vocab_size=40, hidden=16):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab_size, hidden)
        self.fc = nn.Linear(hidden, 1)

    def forward(self, tokens):
        return torch.sigmoid(self.fc(self.emb(tokens))).squeeze(-1)


def decode_smiles(tokens):
    alphabet = "CNOSPFIcnos()=#123456789[]+-@Hl/\\BrKLMQRT"
    return ["".join(alphabet[t] for t in row) for row in tokens.tolist()]


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--nsample", type=int, default=64)
    parser.add_argument("--threshold", type=float, default=0.5)
    parser.add_argument("--epoch", type=int, default=2)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    random.seed(1)
    torch.manual_seed(1)
    model = HierVAE().to(device)
    prop_model = PropertyPredictor().to(device)
    good_smiles = []
    for epoch in range(args.epoch):
        model.eval()
        with torch.no_grad():
            samples = model.sample(args.nsample)
            scores = prop_model(samples)
        smiles = decode_smiles(samples)
        props = scores.numpy()  # root-cause # fails-here
        new_data = [(s, p) for s, p in zip(smiles, props) if p >= args.threshold]
        good_smiles.extend(new_data)
        print(f"Epoch {epoch}: {len(new_data)} above threshold, mean score {np.mean(props):.3f}, total {len(good_smiles)}")

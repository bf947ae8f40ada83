"""MC-Gumbel GAN on one-hot US-Census-like categorical data (multi-categorical-gans style, re-typed): the one-hot matrix is written as a scipy-style CSR .npz (uint8 data/indices/indptr/shape, as uscensus/transform.py saves it), load_dense rebuilds the dense matrix from those arrays the way PR #4 does (csr_matrix(...).A keeps uint8), and the trainer feeds torch.from_numpy(batch) straight to the float32 discriminator
source: https://github.com/rcamino/multi-categorical-gans/pull/4
reported-error: "Fixed npz file load error in formats.py / Added feature type cast to torch.FloatTensor" (the dense rebuild of the uint8 one-hot .npz reaches the discriminator as a ByteTensor; the PR wraps both torch.from_numpy(batch) calls in .type(torch.FloatTensor))
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Byte and Float at line 77
root-cause: line 121
expect: DG005
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn import BCELoss
from torch.optim import Adam

np.random.seed(42)
torch.manual_seed(42)
WORK = tempfile.mkdtemp()


# ---- datasets/uscensus/transform.py (re-typed): one-hot rows saved as a CSR matrix of uint8 ones ----
def uscensus_transform(rows, variable_sizes, output_path):
    offsets = np.cumsum([0] + variable_sizes[:-1])
    indptr, indices = [0], []
    for row in rows:
        indices.extend(int(offsets[v] + value) for v, value in enumerate(row))
        indptr.append(len(indices))
    data = np.ones(len(indices), dtype=np.uint8)  # csr_matrix((ones, (rows, cols)), dtype=np.uint8)
    np.savez(output_path, data=data, indices=np.array(indices, dtype=np.int32),
             indptr=np.array(indptr, dtype=np.int32), shape=np.array([len(rows), sum(variable_sizes)]),
             format=np.array(b"csr"))


# ---- datasets/formats.py, load_dense as PR #4 rewrote it (csr_matrix(...).A, here rebuilt with NumPy) ----
def load_dense(features_path, transform=True):
    features = np.load(features_path)
    if transform:
        n_rows, n_cols = features["shape"]
        dense = np.zeros((n_rows, n_cols), dtype=features["data"].dtype)
        indptr, indices = features["indptr"], features["indices"]
        for r in range(n_rows):
            dense[r, indices[indptr[r]:indptr[r + 1]]] = features["data"][indptr[r]:indptr[r + 1]]
        return dense  # root-cause-alt


class Dataset(object):
    def __init__(self, features):
        self.features = features

    def split(self, proportion):
        limit = int(np.floor(len(self.features) * proportion))
        return Dataset(self.features[:limit, :]), Dataset(self.features[limit:, :])

    def batch_iterator(self, batch_size, shuffle=True):
        indices = np.random.permutation(len(self.features)) if shuffle else np.arange(len(self.features))
        for start in range(0, len(indices), batch_size):
            yield self.features[indices[start:start + batch_size]]


# ---- methods/general (re-typed) ----
class Discriminator(nn.Module):
    def __init__(self, input_size, hidden_sizes=(256, 128), bn_decay=0.9):
        super().__init__()
        layers, previous = [], input_size
        for number, size in enumerate(hidden_sizes):
            layers.append(nn.Linear(previous, size))
            if number > 0 and bn_decay > 0:
                layers.append(nn.BatchNorm1d(size, momentum=(1 - bn_decay)))
            layers.append(nn.LeakyReLU(0.2))
            previous = size
        layers += [nn.Linear(previous, 1), nn.Sigmoid()]
        self.model = nn.Sequential(*layers)

    def forward(self, inputs):
        return self.model(inputs).view(-1)  # fails-here


class Generator(nn.Module):
    def __init__(self, noise_size, variable_sizes, hidden_sizes=(256, 128), bn_decay=0.9):
        super().__init__()
        layers, previous = [], noise_size
        for number, size in enumerate(hidden_sizes):
            layers.append(nn.Linear(previous, size))
            if number > 0 and bn_decay > 0:
                layers.append(nn.BatchNorm1d(size, momentum=(1 - bn_decay)))
            layers.append(nn.ReLU())
            previous = size
        self.hidden_layers = nn.Sequential(*layers)
        self.output_layers = nn.ModuleList([nn.Linear(previous, size) for size in variable_sizes])

    def forward(self, noise, training=False, temperature=None):
        hidden = self.hidden_layers(noise)
        return torch.cat([F.gumbel_softmax(layer(hidden), hard=not training, tau=temperature)
                          for layer in self.output_layers], dim=1)


# ---- methods/mc_gumbel/trainer.py (re-typed, before the PR's FloatTensor casts) ----
def train(generator, discriminator, train_data, val_data, batch_size=100, num_epochs=2, num_disc_steps=2,
          noise_size=128, l2_regularization=0.001, learning_rate=0.001, temperature=0.666):
    optim_gen = Adam(generator.parameters(), weight_decay=l2_regularization, lr=learning_rate)
    optim_disc = Adam(discriminator.parameters(), weight_decay=l2_regularization, lr=learning_rate)
    criterion = BCELoss()
    for epoch in range(num_epochs):
        generator.train(mode=True)
        discriminator.train(mode=True)
        disc_losses, gen_losses = [], []
        batches = train_data.batch_iterator(batch_size)
        more_batches = True
        while more_batches:
            for _ in range(num_disc_steps):
                try:
                    batch = next(batches)
                except StopIteration:
                    more_batches = False
                    break
                label_zeros = torch.zeros(len(batch))
                smooth_label_ones = torch.FloatTensor(len(batch)).uniform_(0.9, 1)
                optim_disc.zero_grad()
                real_features = torch.from_numpy(batch)  # root-cause
                real_pred = discriminator(real_features)
                real_loss = criterion(real_pred, smooth_label_ones)
                real_loss.backward()
                noise = torch.FloatTensor(len(batch), noise_size).normal_()
                fake_features = generator(noise, training=True, temperature=temperature).detach()
                fake_loss = criterion(discriminator(fake_features), label_zeros)
                fake_loss.backward()
                optim_disc.step()
                disc_losses.append((real_loss + fake_loss).item())
            optim_gen.zero_grad()
            noise = torch.FloatTensor(batch_size, noise_size).normal_()
            gen_pred = discriminator(generator(noise, training=True, temperature=temperature))
            gen_loss = criterion(gen_pred, torch.FloatTensor(batch_size).uniform_(0.9, 1))
            gen_loss.backward()
            optim_gen.step()
            gen_losses.append(gen_loss.item())
        correct = total = 0.0
        generator.train(mode=False)
        discriminator.train(mode=False)
        for batch in val_data.batch_iterator(batch_size):
            with torch.no_grad():
                real_pred = discriminator(torch.from_numpy(batch))
                fake_pred = discriminator(generator(torch.randn(len(batch), noise_size), temperature=temperature))
            correct += (real_pred.numpy() > .5).sum() + (fake_pred.numpy() < .5).sum()
            total += 2 * len(batch)
        print(f"epoch {epoch}: disc {np.mean(disc_losses):.4f} gen {np.mean(gen_losses):.4f} "
              f"val acc {correct / total:.3f}")


variable_sizes = [9, 16, 7, 5, 2, 12]
rows = np.stack([np.random.randint(0, size, 1200) for size in variable_sizes], axis=1)
data_path = os.path.join(WORK, "uscensus-features.npz")
uscensus_transform(rows, variable_sizes, data_path)

features = load_dense(data_path)
print("features", features.shape, features.dtype)
train_data, val_data = Dataset(features).split(0.9)
generator = Generator(128, variable_sizes)
discriminator = Discriminator(features.shape[1])
train(generator, discriminator, train_data, val_data)

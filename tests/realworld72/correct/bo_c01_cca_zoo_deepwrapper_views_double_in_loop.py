"""The cca_zoo-style Deep CCA run of bo01 (jameschapman19/cca_zoo #49) with the fix of commit 71645b0: DeepWrapper keeps self.model.double() and converts every view of the tuple batch with d.double() in the train and transform loops, so both float64 encoders get float64 input; the float32 views made in __getitem__ from uint8 images are kept
source: https://github.com/jameschapman19/cca_zoo/issues/49
reported-error: -
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset, Subset

torch.manual_seed(0)
np.random.seed(0)


class Noisy_MNIST_Dataset(Dataset):
    """Paired views as in cca_zoo.data.Noisy_MNIST_Dataset: view a is a (rotated) digit image, view b another image
    of the same class with added noise. Synthetic 28x28 uint8 'digits' stand in for the torchvision download."""

    def __init__(self, n=600, train=True):
        rng = np.random.default_rng(0 if train else 1)
        protos = rng.random((10, 28, 28))
        self.targets = rng.integers(0, 10, n)
        self.data = ((protos[self.targets] + 0.3 * rng.random((n, 28, 28))) * 180).clip(0, 255).astype(np.uint8)
        self.by_class = {c: np.flatnonzero(self.targets == c) for c in range(10)}
        self.rng = rng

    def __len__(self):
        return len(self.targets)

    def __getitem__(self, idx):
        label = int(self.targets[idx])
        x_a = torch.from_numpy(np.rot90(self.data[idx], k=int(self.rng.integers(0, 4))).copy()).float() / 255.0
        other = self.data[self.rng.choice(self.by_class[label])]
        x_b = (torch.from_numpy(other).float() / 255.0 + 0.1 * torch.rand(28, 28)).clamp(0, 1)
        return (x_a.flatten(), x_b.flatten()), label


class Encoder(nn.Module):
    def __init__(self, latent_dims, feature_size=784, layer_sizes=(128,)):
        super().__init__()
        layers, prev = [], feature_size
        for size in layer_sizes:
            layers += [nn.Linear(prev, size), nn.ReLU()]
            prev = size
        self.layers = nn.Sequential(*layers)
        self.fc = nn.Linear(prev, latent_dims)

    def forward(self, x):
        x = self.layers(x)
        return self.fc(x)


class CCA:
    """Two-view CCA objective (cca_zoo.deepmodels.objectives.CCA): minus the sum of the top canonical correlations."""

    def __init__(self, latent_dims, r=0, eps=1e-3):
        self.latent_dims, self.r, self.eps = latent_dims, r, eps

    def _inv_sqrt(self, sigma):
        D, V = torch.linalg.eigh(sigma)
        D = torch.clamp(D, min=self.eps)
        return V @ torch.diag(D ** -0.5) @ V.T

    def loss(self, H1, H2):
        m, o = H1.shape
        H1bar, H2bar = H1 - H1.mean(0), H2 - H2.mean(0)
        eye = torch.eye(o, dtype=H1.dtype, device=H1.device)
        S12 = H1bar.T @ H2bar / (m - 1)
        S11 = H1bar.T @ H1bar / (m - 1) + self.r * eye
        S22 = H2bar.T @ H2bar / (m - 1) + self.r * eye
        T = self._inv_sqrt(S11) @ S12 @ self._inv_sqrt(S22)
        return -torch.linalg.svdvals(T)[: self.latent_dims].sum()


class DCCA(nn.Module):
    def __init__(self, latent_dims, encoders):
        super().__init__()
        self.latent_dims = latent_dims
        self.encoders = nn.ModuleList(encoders)
        self.objective = CCA(latent_dims)

    def forward(self, *args):
        return tuple(encoder(args[i]) for i, encoder in enumerate(self.encoders))

    def loss(self, *args):
        return self.objective.loss(*self(*args))


class DeepWrapper:
    def __init__(self, model, device="cuda", lr=1e-3):
        self.model = model
        self.device = device if torch.cuda.is_available() else "cpu"
        self.optimizer = torch.optim.LBFGS(self.model.parameters(), lr=lr)  # DCCA default (Andrew et al. 2013)

    def fit(self, train_dataset, val_dataset=None, epochs=1, batch_size=0):
        train_dataloader = DataLoader(train_dataset, batch_size=batch_size or len(train_dataset), drop_last=True)
        self.model.double().to(self.device)
        for epoch in range(1, epochs + 1):
            epoch_train_loss = self._train_epoch(train_dataloader)
            print("====> Epoch: {} Average train loss: {:.4f}".format(epoch, epoch_train_loss))
        return self

    def _train_epoch(self, train_dataloader):
        self.model.train()
        train_loss = 0
        for batch_idx, (data, label) in enumerate(train_dataloader):
            data = [d.double().to(self.device) for d in list(data)]
            loss = self._update_weights(*data)
            train_loss += loss.item()
        return train_loss / len(train_dataloader)

    def _update_weights(self, *args):
        def closure():
            self.optimizer.zero_grad()
            loss = self.model.loss(*args)
            loss.backward()
            return loss

        self.optimizer.step(closure)
        return closure()

    def transform(self, test_dataset):
        test_dataloader = DataLoader(test_dataset, batch_size=len(test_dataset))
        with torch.no_grad():
            for batch_idx, (data, label) in enumerate(test_dataloader):
                data = [d.double().to(self.device) for d in list(data)]
                z = self.model(*data)
        return [z_i.cpu().numpy() for z_i in z]

    def predict_corr(self, test_dataset):
        z1, z2 = self.transform(test_dataset)
        return np.array([np.corrcoef(z1[:, k], z2[:, k])[0, 1] for k in range(z1.shape[1])])


N, latent_dims = 250, 2
dataset = Noisy_MNIST_Dataset(n=2 * N, train=True)
ids = np.arange(2 * N)
np.random.shuffle(ids)
train_ids, val_ids = np.array_split(ids, 2)
train_dataset, val_dataset = Subset(dataset, train_ids), Subset(dataset, val_ids)

encoder_1 = Encoder(latent_dims=latent_dims, feature_size=784)
encoder_2 = Encoder(latent_dims=latent_dims, feature_size=784)
dcca_model = DeepWrapper(DCCA(latent_dims=latent_dims, encoders=[encoder_1, encoder_2]))
dcca_model.fit(train_dataset, val_dataset=val_dataset, epochs=2)
corrs = dcca_model.predict_corr(val_dataset)
print("validation canonical correlations:", np.round(corrs, 3))
assert next(dcca_model.model.parameters()).dtype == torch.float64

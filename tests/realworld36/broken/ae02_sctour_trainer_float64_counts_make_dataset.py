"""Developmental pseudotime with scTour (LiQian-XC/sctour: sct.train.Trainer(adata, loss_mode='nb', ...) then tnode.train(); Trainer.__init__ checks the raw counts, log1p-transforms adata.X, picks self.device and builds TNODE from model_kwargs; get_data_loaders wraps split_data's AnnData views in MakeDataset): the reporter's adata.X holds float64 counts (a Seurat/h5ad conversion), MakeDataset turns it into a float64 tensor with torch.tensor(X), and the first encoder Linear fails in on_epoch_train
source: https://github.com/LiQian-XC/sctour/issues/14
reported-error: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float (when running tnode.train(); the reporter solved it by converting adata.X from float64 to float32, the fix the maintainer gives in #9 and #19)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 79
root-cause: line 56
expect: DG004
"""
from collections import defaultdict

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader


# ---- stand-in for anndata.AnnData (dense .X, .obs frame, row views)
class AnnData:
    def __init__(self, X, obs=None, var_names=None):
        self.X = X
        self.obs = obs if obs is not None else pd.DataFrame(index=range(X.shape[0]))
        self.var_names = var_names if var_names is not None else pd.Index([f"g{i}" for i in range(X.shape[1])])

    @property
    def n_obs(self):
        return self.X.shape[0]

    @property
    def n_vars(self):
        return self.X.shape[1]

    def __getitem__(self, index):
        rows, _ = index
        return AnnData(self.X[rows], self.obs.iloc[rows].reset_index(drop=True), self.var_names)


# ---- sctour/data.py
def split_data(adata, percent, val_frac=0.1):
    n_cells = adata.n_obs
    n_train = int(np.ceil(n_cells * percent))
    n_val = min(int(np.floor(n_train * val_frac)), n_cells - n_train)

    indices = np.random.permutation(n_cells)
    train_idx = np.random.choice(indices, n_train, replace=False)
    indices2 = np.setdiff1d(indices, train_idx)
    val_idx = np.random.choice(indices2, n_val, replace=False)

    train_data = adata[train_idx, :]
    val_data = adata[val_idx, :]
    return train_data, val_data


class MakeDataset(Dataset):
    def __init__(self, adata):
        X = adata.X
        self.data = torch.tensor(X)  # root-cause
        self.library_size = self.data.sum(-1)

    def __len__(self):
        return self.data.size(0)

    def __getitem__(self, idx):
        return self.data[idx, :], self.library_size[idx]


# ---- sctour/module.py + model.py (the ODE solver replaced by explicit Euler steps; nb loss simplified)
class Encoder(nn.Module):
    def __init__(self, n_int, n_latent, n_hidden, batch_norm=False):
        super().__init__()
        self.fc = nn.Sequential()
        self.fc.add_module('L1', nn.Linear(n_int, n_hidden))
        if batch_norm:
            self.fc.add_module('N1', nn.BatchNorm1d(n_hidden))
        self.fc.add_module('A1', nn.ReLU())
        self.fc2 = nn.Linear(n_hidden, n_latent * 2)
        self.fc3 = nn.Linear(n_hidden, 1)

    def forward(self, x):
        x = self.fc(x)  # fails-here
        out = self.fc2(x)
        qz_mean, qz_logvar = out[:, :out.shape[1] // 2], out[:, out.shape[1] // 2:]
        t = self.fc3(x).sigmoid()
        return t, qz_mean, qz_logvar


class LatentODEfunc(nn.Module):
    def __init__(self, n_latent=5, n_hidden=25):
        super().__init__()
        self.fc1 = nn.Linear(n_latent, n_hidden)
        self.fc2 = nn.Linear(n_hidden, n_latent)

    def forward(self, t, x):
        return self.fc2(torch.nn.functional.elu(self.fc1(x)))


class Decoder(nn.Module):
    def __init__(self, n_latent, n_int, n_hidden):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(n_latent, n_hidden), nn.ReLU())
        self.fc2 = nn.Linear(n_hidden, n_int)
        self.disp = nn.Parameter(torch.randn(n_int))

    def forward(self, z):
        return torch.softmax(self.fc2(self.fc(z)), dim=-1)


class TNODE(nn.Module):
    def __init__(self, device, n_int, n_latent=5, n_ode_hidden=25, n_vae_hidden=128, batch_norm=False,
                 ode_method='euler', step_size=None, alpha_recon_lec=0.5, alpha_recon_lode=0.5,
                 alpha_kl=1.0, loss_mode='nb'):
        super().__init__()
        self.n_int = n_int
        self.alpha_recon_lec = alpha_recon_lec
        self.alpha_recon_lode = alpha_recon_lode
        self.alpha_kl = alpha_kl
        self.device = device
        self.lode_func = LatentODEfunc(n_latent, n_ode_hidden)
        self.encoder = Encoder(n_int, n_latent, n_vae_hidden, batch_norm).to(self.device)
        self.decoder = Decoder(n_latent, n_int, n_vae_hidden).to(self.device)
        self.lode_func.to(self.device)

    def forward(self, x, y):
        T, qz_mean, qz_logvar = self.encoder(x)
        z = qz_mean + torch.randn_like(qz_mean) * torch.exp(0.5 * qz_logvar)
        index = torch.argsort(T.ravel())
        T, z, x, y = T[index].ravel(), z[index], x[index], y[index]
        pred_z = [z[0]]
        for i in range(1, len(T)):
            pred_z.append(pred_z[-1] + (T[i] - T[i - 1]) * self.lode_func(T[i], pred_z[-1]))
        pred_z = torch.stack(pred_z)
        pred_x1 = self.decoder(z) * y.unsqueeze(-1)
        pred_x2 = self.decoder(pred_z) * y.unsqueeze(-1)
        recon_loss_ec = ((pred_x1 - torch.expm1(x)) ** 2).sum(-1).mean()
        recon_loss_ode = ((pred_x2 - torch.expm1(x)) ** 2).sum(-1).mean()
        kl_div = (-0.5 * (1 + qz_logvar - qz_mean ** 2 - qz_logvar.exp())).sum(-1).mean()
        z_div = ((z - pred_z) ** 2).sum(-1).mean()
        loss = self.alpha_recon_lec * recon_loss_ec + self.alpha_recon_lode * recon_loss_ode + self.alpha_kl * kl_div + z_div
        return loss, recon_loss_ec, recon_loss_ode, kl_div, z_div


# ---- sctour/train.py (Trainer, trimmed to what tnode.train() runs)
class Trainer:
    def __init__(self, adata, percent=None, n_latent=5, n_ode_hidden=25, n_vae_hidden=128, batch_norm=False,
                 ode_method='euler', step_size=None, alpha_recon_lec=0.5, alpha_recon_lode=0.5, alpha_kl=1.,
                 loss_mode='nb', nepoch=None, batch_size=1024, drop_last=False, lr=1e-3, wt_decay=1e-6,
                 eps=0.01, random_state=0, val_frac=0.1, use_gpu=True):
        self.loss_mode = loss_mode
        if alpha_recon_lec + alpha_recon_lode != 1:
            raise ValueError('The sum of `alpha_recon_lec` and `alpha_recon_lode` must be 1.')
        self.adata = adata
        if 'n_genes_by_counts' not in self.adata.obs:
            raise KeyError("`n_genes_by_counts` not found in `.obs` of the AnnData.")
        X = self.adata.X
        if (X.min() < 0) or np.any(~np.equal(np.mod(X, 1), 0)):
            raise ValueError(f"Invalid expression matrix in `.X`. `{self.loss_mode}` mode expects raw UMI counts.")
        else:
            self.adata.X = np.log1p(self.adata.X)

        self.n_cells = adata.n_obs
        self.batch_size = batch_size
        self.percent = percent if percent is not None else (.2 if self.n_cells > 10000 else .9)
        self.val_frac = val_frac
        self.nepoch = nepoch if nepoch is not None else np.min([round((10000 / round(self.n_cells * self.percent)) * 400), 400])
        self.lr = lr
        self.wt_decay = wt_decay
        self.eps = eps
        self.random_state = random_state
        np.random.seed(random_state)
        torch.manual_seed(random_state)

        gpu = torch.cuda.is_available() and use_gpu
        if gpu:
            torch.cuda.manual_seed(random_state)
            self.device = torch.device('cuda')
        else:
            self.device = torch.device('cpu')
        self.n_int = adata.n_vars
        self.model_kwargs = dict(
            device=self.device, n_int=self.n_int, n_latent=n_latent, n_ode_hidden=n_ode_hidden,
            n_vae_hidden=n_vae_hidden, batch_norm=batch_norm, ode_method=ode_method, step_size=step_size,
            alpha_recon_lec=alpha_recon_lec, alpha_recon_lode=alpha_recon_lode, alpha_kl=alpha_kl,
            loss_mode=loss_mode,
        )
        self.model = TNODE(**self.model_kwargs)
        self.log = defaultdict(list)

    def get_data_loaders(self):
        train_data, val_data = split_data(self.adata, self.percent, self.val_frac)
        self.train_dataset = MakeDataset(train_data)
        self.val_dataset = MakeDataset(val_data)
        self.train_dl = DataLoader(self.train_dataset, batch_size=self.batch_size, shuffle=True)
        self.val_dl = DataLoader(self.val_dataset, batch_size=self.batch_size)

    def train(self):
        self.get_data_loaders()
        params = filter(lambda p: p.requires_grad, self.model.parameters())
        self.optimizer = torch.optim.Adam(params, lr=self.lr, weight_decay=self.wt_decay, eps=self.eps)
        for tepoch in range(self.nepoch):
            train_loss = self.on_epoch_train(self.train_dl)
            val_loss = self.on_epoch_val(self.val_dl)
            self.log['train_loss'].append(train_loss.item())
            self.log['validation_loss'].append(val_loss.item())
            print(f"Epoch {tepoch + 1}: train_loss {train_loss.item():.3f}, val_loss {val_loss.item():.3f}")

    def on_epoch_train(self, DL):
        self.model.train()
        total_loss = .0
        ss = 0
        for X, Y in DL:
            self.optimizer.zero_grad()
            X = X.to(self.device)
            Y = Y.to(self.device)
            loss, recon_loss_ec, recon_loss_ode, kl_div, z_div = self.model(X, Y)
            loss.backward()
            self.optimizer.step()
            total_loss += loss * X.size(0)
            ss += X.size(0)
        return total_loss / ss

    @torch.no_grad()
    def on_epoch_val(self, DL):
        self.model.eval()
        total_loss = .0
        ss = 0
        for X, Y in DL:
            X = X.to(self.device)
            Y = Y.to(self.device)
            loss, recon_loss_ec, recon_loss_ode, kl_div, z_div = self.model(X, Y)
            total_loss += loss * X.size(0)
            ss += X.size(0)
        return total_loss / ss


# ---- the reporter's notebook (sc.read_h5ad / calculate_qc_metrics / highly_variable_genes replaced by synthetic counts)
rng = np.random.default_rng(0)
counts = rng.poisson(1.5, size=(400, 60)).astype(np.float64)   # a float64 count matrix, as converted from Seurat
adata = AnnData(counts)
adata.obs['n_genes_by_counts'] = (adata.X > 0).sum(1)

tnode = Trainer(adata, loss_mode='nb', alpha_recon_lec=0.5, alpha_recon_lode=0.5, nepoch=2, batch_size=128)
tnode.train()

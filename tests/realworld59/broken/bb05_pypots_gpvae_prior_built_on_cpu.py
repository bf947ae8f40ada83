"""GP-VAE imputation of partially observed time series (PyPOTS-style _GPVAE re-typed: a conv/MLP encoder giving a MultivariateNormal posterior with a banded precision, a Gaussian decoder, the Cauchy-kernel Gaussian-process prior (the default kernel) built once by _init_prior in __init__, the K=1 ELBO) trained on the GPU: the prior is a torch.distributions.MultivariateNormal kept as a plain attribute, built from torch.zeros(latent_dim, time_length) and CPU kernel matrices, which model.to(device) cannot move, so the KL term mixes the GPU posterior with the CPU prior. The meta device stands in for cuda (this machine has no GPU); distribution argument validation is switched off because it reads values, which meta tensors do not have
source: https://github.com/WenjieDu/PyPOTS/issues/200
reported-error: "GP-VAE met error when running on CUDA": running an instantiated GP-VAE on CUDA device(s) fails because in model.py L175-176 (kl_divergence(a, b)) "a and b are not on the same device. a is on CUDA and b is on CPU." (fixed by building the prior lazily in forward with loc=torch.zeros(..., device=device) and covariance_matrix=kernel_matrix_tiled.to(device))
outcome: RuntimeError: Tensor on device meta is not on the expected device cpu! at line 99
root-cause: line 114
expect: DG009
"""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
DEVICE = torch.device("meta")  # stand-in for torch.device("cuda")
torch.distributions.Distribution.set_default_validate_args(False)  # meta stand-in: validation reads values


def cauchy_kernel(T, sigma, length_scale):
    xs = torch.arange(T).float()
    xs_in = torch.unsqueeze(xs, 0)
    xs_out = torch.unsqueeze(xs, 1)
    distance_matrix = (xs_in - xs_out) ** 2
    distance_matrix_scaled = distance_matrix / length_scale ** 2
    kernel_matrix = sigma / (distance_matrix_scaled + 1.0)
    alpha = 0.001
    eye = torch.eye(kernel_matrix.shape[-1])
    return kernel_matrix + alpha * eye


class Encoder(nn.Module):
    """Conv1d over time, then mean and banded-precision heads (dense re-typing of the sparse COO construction)."""

    def __init__(self, input_size, z_size, hidden_sizes=(64, 64), window_size=3):
        super().__init__()
        self.z_size = z_size
        self.conv = nn.Conv1d(input_size, hidden_sizes[0], kernel_size=window_size, padding=window_size // 2)
        self.net = nn.Sequential(nn.Linear(hidden_sizes[0], hidden_sizes[1]), nn.ReLU())
        self.mu_layer = nn.Linear(hidden_sizes[1], z_size)
        self.logvar_layer = nn.Linear(hidden_sizes[1], 2 * z_size)

    def forward(self, x):
        mapped = self.net(self.conv(x.transpose(1, 2)).transpose(1, 2))
        batch_size, time_length = mapped.size(0), mapped.size(1)
        mapped_mean = torch.transpose(self.mu_layer(mapped), 1, 2)
        mapped_covar = torch.sigmoid(torch.transpose(self.logvar_layer(mapped), 1, 2))
        mapped_reshaped = mapped_covar.reshape(batch_size, self.z_size, 2 * time_length)
        diag = mapped_reshaped[:, :, :time_length]
        off = mapped_reshaped[:, :, time_length:2 * time_length - 1]
        prec_tril = torch.diag_embed(diag) + torch.diag_embed(off, offset=1)
        eye = torch.eye(time_length).unsqueeze(0).repeat(batch_size, self.z_size, 1, 1).to(mapped.device)
        prec_tril = prec_tril + eye
        cov_tril = torch.linalg.solve_triangular(prec_tril, eye, upper=True)
        cov_tril = torch.where(torch.isfinite(cov_tril), cov_tril, torch.zeros_like(cov_tril))
        return torch.distributions.MultivariateNormal(loc=mapped_mean, scale_tril=torch.transpose(cov_tril, -1, -2))


class Decoder(nn.Module):
    def __init__(self, input_size, output_size, hidden_sizes=(64, 64)):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(input_size, hidden_sizes[0]), nn.ReLU(), nn.Linear(hidden_sizes[0], hidden_sizes[1]), nn.ReLU(), nn.Linear(hidden_sizes[1], output_size))

    def forward(self, x):
        mu = self.net(x)
        return torch.distributions.Normal(mu, torch.ones_like(mu))


class _GPVAE(nn.Module):
    def __init__(self, input_dim, time_length, latent_dim, beta=0.2, M=1, K=1, sigma=1.0, length_scale=7.0, kernel_scales=1):
        super().__init__()
        self.time_length, self.latent_dim, self.beta, self.M, self.K = time_length, latent_dim, beta, M, K
        self.sigma, self.length_scale, self.kernel_scales = sigma, length_scale, kernel_scales
        self.encoder = Encoder(input_dim, latent_dim)
        self.decoder = Decoder(latent_dim, input_dim)
        self.prior = self._init_prior()  # root-cause-alt

    def encode(self, x):
        return self.encoder(x)

    def decode(self, z):
        return self.decoder(torch.transpose(z, -1, -2))

    def forward(self, inputs, training=True):
        x, m_mask = inputs["X"], inputs["missing_mask"]
        x = x.repeat(self.M * self.K, 1, 1)
        m_mask = m_mask.repeat(self.M * self.K, 1, 1).type(torch.bool)
        qz_x = self.encode(x)
        z = qz_x.rsample()
        px_z = self.decode(z)
        nll = -px_z.log_prob(x)
        nll = torch.where(torch.isfinite(nll), nll, torch.zeros_like(nll))
        nll = torch.where(m_mask, nll, torch.zeros_like(nll)).sum(dim=(1, 2))
        kl = self.kl_divergence(qz_x, self.prior)
        kl = torch.where(torch.isfinite(kl), kl, torch.zeros_like(kl)).sum(1)
        elbo = (-nll - self.beta * kl).mean()
        imputed_data = self.decode(self.encode(x).mean).mean * ~m_mask + x * m_mask
        return {"loss": -elbo.mean(), "imputed_data": imputed_data}

    @staticmethod
    def kl_divergence(a, b):
        return torch.distributions.kl.kl_divergence(a, b)  # fails-here

    def _init_prior(self):
        kernel_matrices = [cauchy_kernel(self.time_length, self.sigma, self.length_scale / 2 ** i) for i in range(self.kernel_scales)]
        tiled_matrices, total = [], 0
        for i in range(self.kernel_scales):
            if i == self.kernel_scales - 1:
                multiplier = self.latent_dim - total
            else:
                multiplier = int(np.ceil(self.latent_dim / self.kernel_scales))
                total += multiplier
            tiled_matrices.append(torch.unsqueeze(kernel_matrices[i], 0).repeat(multiplier, 1, 1))
        kernel_matrix_tiled = torch.cat(tiled_matrices)
        assert len(kernel_matrix_tiled) == self.latent_dim
        return torch.distributions.MultivariateNormal(
            loc=torch.zeros(self.latent_dim, self.time_length),  # root-cause
            covariance_matrix=kernel_matrix_tiled,
        )


# physionet-like data: 128 samples, 24 steps, 6 features, 20% of the values missing (NaN)
rng = np.random.default_rng(0)
X = np.sin(np.linspace(0, 6, 24))[None, :, None] * rng.normal(1.0, 0.3, (128, 1, 6)) + rng.normal(0, 0.1, (128, 24, 6))
X[rng.random(X.shape) < 0.2] = np.nan
X = torch.from_numpy(X).to(torch.float32)
missing_mask = (~torch.isnan(X)).type(torch.float32)
X = torch.nan_to_num(X)

model = _GPVAE(input_dim=6, time_length=24, latent_dim=4, beta=0.2, kernel_scales=1).to(DEVICE)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-5)
for epoch in range(2):
    model.train()
    for idx in torch.randperm(128).split(32):
        inputs = {"X": X[idx].to(DEVICE), "missing_mask": missing_mask[idx].to(DEVICE)}
        optimizer.zero_grad()
        results = model.forward(inputs)
        results["loss"].backward()
        optimizer.step()
    print(f"epoch {epoch}: loss on {results['loss'].device}, imputation {tuple(results['imputed_data'].shape)}")

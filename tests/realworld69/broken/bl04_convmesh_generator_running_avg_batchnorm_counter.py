"""A convmesh-style textured-mesh GAN (run_generation.py re-typed: a generator emitting a texture image and a mesh displacement map from noise and a class code, a discriminator, hinge GAN loss, d_steps_per_g alternation, a generator_running_avg copy updated after every generator step); update_generator_running_avg walks the whole state_dict of the averaged generator and applies param.mul_(alpha).add_(...), which reaches BatchNorm's int64 num_batches_tracked buffer and fails on the first generator step
source: https://github.com/dariopavllo/convmesh/issues/1
reported-error: "File \"run_generation.py\", line 452, in update_generator_running_avg: param.mul_(alpha).add_(g_state_dict[k], alpha=1-alpha) RuntimeError: result type Float can't be cast to the desired output type Long" (the reporter's dtype printout shows torch.float32 entries and then torch.int64; fixed in commit 27cdbf2 "Fix training on PyTorch 1.6")
outcome: RuntimeError: result type Float can't be cast to the desired output type Long at line 82
root-cause: line 82
expect: DG005
"""
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
args = {"epochs": 2, "batch_size": 8, "latent_dim": 32, "num_classes": 4, "tex_res": 16, "mesh_res": 8,
        "d_steps_per_g": 1, "g_running_average_alpha": 0.999, "lr_g": 1e-4, "lr_d": 4e-4, "mesh_regularization": 1e-4}


class Generator(nn.Module):
    def __init__(self, latent_dim, num_classes, tex_res, mesh_res):
        super().__init__()
        self.class_emb = nn.Embedding(num_classes, latent_dim)
        self.fc = nn.Linear(2 * latent_dim, 64 * 4 * 4)
        self.tex = nn.Sequential(
            nn.Upsample(scale_factor=2), nn.Conv2d(64, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
            nn.Upsample(scale_factor=2), nn.Conv2d(32, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 3, 3, padding=1), nn.Tanh())
        self.mesh = nn.Sequential(
            nn.Upsample(scale_factor=2), nn.Conv2d(64, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 3, 3, padding=1))

    def forward(self, z, C):
        h = self.fc(torch.cat([z, self.class_emb(C)], dim=1)).view(-1, 64, 4, 4)
        return self.tex(h), self.mesh(h)


class Discriminator(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.tex = nn.Sequential(nn.Conv2d(4, 32, 4, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(32, 64, 4, 2, 1), nn.LeakyReLU(0.2))
        self.mesh = nn.Sequential(nn.Conv2d(3, 32, 4, 2, 1), nn.LeakyReLU(0.2))
        self.out = nn.Linear(64 * 4 * 4 + 32 * 4 * 4, 1)
        self.proj = nn.Embedding(num_classes, 64 * 4 * 4 + 32 * 4 * 4)

    def forward(self, tex, alpha, mesh, C):
        h = torch.cat([self.tex(torch.cat([tex, alpha], 1)).flatten(1), self.mesh(mesh).flatten(1)], 1)
        return self.out(h).squeeze(1) + (self.proj(C) * h).sum(1)


def fake_loader(n=32):
    """Stand-in for the CUB/P3D texture datasets: textures in [-1, 1], alpha masks, mesh displacement maps, classes."""
    rng = np.random.default_rng(0)
    for i in range(0, n, args["batch_size"]):
        b = args["batch_size"]
        yield {"texture": torch.from_numpy(rng.uniform(-1, 1, (b, 3, 16, 16)).astype(np.float32)),
               "texture_alpha": torch.from_numpy((rng.uniform(0, 1, (b, 1, 16, 16)) > 0.2).astype(np.float32)),
               "mesh": torch.from_numpy(rng.normal(0, 0.1, (b, 3, 8, 8)).astype(np.float32)),
               "class": torch.from_numpy(rng.integers(0, args["num_classes"], b))}


generator = Generator(args["latent_dim"], args["num_classes"], args["tex_res"], args["mesh_res"])
generator_running_avg = Generator(args["latent_dim"], args["num_classes"], args["tex_res"], args["mesh_res"])
generator_running_avg.load_state_dict(generator.state_dict())  # Same initial weights
for p in generator_running_avg.parameters():
    p.requires_grad = False
discriminator = Discriminator(args["num_classes"])
optimizer_g = torch.optim.Adam(generator.parameters(), lr=args["lr_g"], betas=(0.0, 0.99))
optimizer_d = torch.optim.Adam(discriminator.parameters(), lr=args["lr_d"], betas=(0.0, 0.99))


def update_generator_running_avg(epoch):
    with torch.no_grad():
        if epoch < 10:
            alpha = math.pow(args["g_running_average_alpha"], 100)
        elif epoch < 100:
            alpha = math.pow(args["g_running_average_alpha"], 10)
        else:
            alpha = args["g_running_average_alpha"]
        g_state_dict = generator.state_dict()
        for k, param in generator_running_avg.state_dict().items():  # root-cause-alt
            param.mul_(alpha).add_(g_state_dict[k], alpha=1 - alpha)  # root-cause  # fails-here


def loss_flat(mesh):
    dx = mesh[:, :, 1:, :] - mesh[:, :, :-1, :]
    dy = mesh[:, :, :, 1:] - mesh[:, :, :, :-1]
    return dx.pow(2).mean() + dy.pow(2).mean()


total_it = 0
for epoch in range(args["epochs"]):
    g_curve, d_curve = [], []
    for i, data in enumerate(fake_loader()):
        X_tex, X_alpha, X_mesh, C = data["texture"], data["texture_alpha"], data["mesh"], data["class"]
        z = torch.randn(X_tex.shape[0], args["latent_dim"])
        if total_it % (1 + args["d_steps_per_g"]) == 0:
            optimizer_g.zero_grad()
            pred_tex, pred_mesh = generator(z, C)
            loss_gan = -discriminator(pred_tex, X_alpha, pred_mesh, C).mean()
            loss = loss_gan + args["mesh_regularization"] * loss_flat(pred_mesh)
            loss.backward()
            optimizer_g.step()
            update_generator_running_avg(epoch)
            g_curve.append(loss_gan.item())
        else:
            optimizer_d.zero_grad()
            with torch.no_grad():
                pred_tex, pred_mesh = generator(z, C)
            loss_fake = F.relu(1 + discriminator(pred_tex, X_alpha, pred_mesh, C)).mean()
            loss_real = F.relu(1 - discriminator(X_tex, X_alpha, X_mesh, C)).mean()
            (loss_fake + loss_real).backward()
            optimizer_d.step()
            d_curve.append((loss_fake + loss_real).item())
        total_it += 1
    print(f"epoch {epoch}: g {np.mean(g_curve):.4f} d {np.mean(d_curve):.4f}")

generator_running_avg.eval()
with torch.no_grad():
    tex, mesh = generator_running_avg(torch.randn(4, args["latent_dim"]), torch.arange(4))
print("running-average generator sample", tuple(tex.shape), tuple(mesh.shape))

"""Gradient-based tuning of two quadrupoles so that a Cheetah-style particle beam hits a target spot size on a screen (desy-ml/cheetah #484 as in as06) with the beam generated in float32, the dtype Cheetah kept supporting after the issue (its fix dropped float16 from the tested dtypes): MultivariateNormal validates and factorizes a float32 covariance on the CPU, the 100k particles are sampled and tracked, and Adam tunes the float32 quadrupole strengths
source: https://github.com/desy-ml/cheetah/issues/484
reported-error: (none filed; the fixed situation of as06)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import torch
import torch.nn as nn
from torch.distributions import MultivariateNormal

torch.manual_seed(0)
out_dir = tempfile.mkdtemp()


# ---- cheetah.ParticleBeam, the parts this script uses (particles: x, px, y, py, tau, p, 1)
class ParticleBeam:
    def __init__(self, particles, energy):
        self.particles, self.energy = particles, energy

    @classmethod
    def from_parameters(cls, num_particles=100_000, sigma_x=None, sigma_px=None, sigma_y=None, sigma_py=None,
                        sigma_tau=None, sigma_p=None, energy=None, dtype=torch.float32):
        f = {"dtype": dtype}
        sigma_x = sigma_x if sigma_x is not None else torch.tensor(175e-6, **f)
        sigma_px = sigma_px if sigma_px is not None else torch.tensor(4e-6, **f)
        sigma_y = sigma_y if sigma_y is not None else torch.tensor(175e-6, **f)
        sigma_py = sigma_py if sigma_py is not None else torch.tensor(4e-6, **f)
        sigma_tau = sigma_tau if sigma_tau is not None else torch.tensor(8e-6, **f)
        sigma_p = sigma_p if sigma_p is not None else torch.tensor(2e-3, **f)
        mean = torch.zeros(6, **f)
        cov = torch.zeros(6, 6, **f)
        for i, s in enumerate([sigma_x, sigma_px, sigma_y, sigma_py, sigma_tau, sigma_p]):
            cov[i, i] = s ** 2
        return cls.from_distribution(mean, cov, num_particles, energy, dtype)

    @classmethod
    def from_distribution(cls, mu, cov, num_particles, energy, dtype):
        energy = energy if energy is not None else torch.tensor(1e8, dtype=dtype)
        particles = torch.ones((num_particles, 7), dtype=dtype)
        distribution = MultivariateNormal(mu, covariance_matrix=cov)
        particles[:, :6] = distribution.rsample((num_particles,))
        return cls(particles, energy)

    @property
    def sigma_x(self):
        return self.particles[:, 0].float().std()

    @property
    def sigma_y(self):
        return self.particles[:, 2].float().std()


# ---- linear elements: 7x7 transfer maps applied as particles @ R^T (thin-lens-free, first order)
def drift_map(length):
    r = torch.eye(7)
    r[0, 1] = length
    r[2, 3] = length
    return r


class Quadrupole(nn.Module):
    def __init__(self, length, k1):
        super().__init__()
        self.length = length
        self.k1 = nn.Parameter(torch.tensor(float(k1)))

    def transfer_map(self):
        kx = torch.sqrt(torch.abs(self.k1) + 1e-12)
        lx = kx * self.length
        r = torch.eye(7).clone()
        foc = torch.stack([torch.stack([torch.cos(lx), torch.sin(lx) / kx]),
                           torch.stack([-kx * torch.sin(lx), torch.cos(lx)])])
        defoc = torch.stack([torch.stack([torch.cosh(lx), torch.sinh(lx) / kx]),
                             torch.stack([kx * torch.sinh(lx), torch.cosh(lx)])])
        x_block, y_block = (foc, defoc) if self.k1 >= 0 else (defoc, foc)
        r = r.index_put((torch.tensor([0, 0, 1, 1]), torch.tensor([0, 1, 0, 1])), x_block.reshape(-1))
        r = r.index_put((torch.tensor([2, 2, 3, 3]), torch.tensor([2, 3, 2, 3])), y_block.reshape(-1))
        return r


class Segment(nn.Module):
    "drift - Q1 - drift - Q2 - drift - screen (the ARES experimental area, reduced)"

    def __init__(self):
        super().__init__()
        self.q1 = Quadrupole(0.122, 10.0)
        self.q2 = Quadrupole(0.122, -9.0)

    def track(self, particles):
        for r in [drift_map(0.2), self.q1.transfer_map(), drift_map(0.2), self.q2.transfer_map(), drift_map(0.5)]:
            particles = particles @ r.to(particles.dtype).T
        return particles


dtype = torch.float32  # the CPU has no float16 Cholesky, and sigma_px**2 would underflow in float16
incoming = ParticleBeam.from_parameters(num_particles=100_000, sigma_x=torch.tensor(1e-4), sigma_y=torch.tensor(2e-4),
                                        sigma_px=torch.tensor(2e-5), sigma_py=torch.tensor(2e-5), dtype=dtype)

segment = Segment()
target = torch.tensor([5e-5, 5e-5])
optimizer = torch.optim.Adam(segment.parameters(), lr=0.1)
for step in range(60):
    out = segment.track(incoming.particles.float())
    beam_size = torch.stack([out[:, 0].std(), out[:, 2].std()])
    loss = ((beam_size - target) / target).pow(2).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 20 == 0:
        print(f"step {step} sigma_x={beam_size[0].item():.2e} sigma_y={beam_size[1].item():.2e} loss={loss.item():.4f}")

torch.save(segment.state_dict(), os.path.join(out_dir, "quad_settings.pt"))
print("k1:", segment.q1.k1.item(), segment.q2.k1.item())

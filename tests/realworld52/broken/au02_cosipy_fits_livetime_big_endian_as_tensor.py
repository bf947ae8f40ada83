"""Fitting the normalisation of a learned (neural) background-rate model to a COSI-style gamma-ray event list, as cosipy's FreeNormNFUnbinnedBackground does it: the spacecraft history is read back from its FITS orientation file, whose binary-table columns are stored big-endian ('>f8') and kept that way by the reader (astropy's QTable.read), while the timestamps become native through Time(...); _integrate_rate multiplies the model rate by torch.as_tensor(sc_history.livetime), and torch refuses the non-native byte order
source: https://github.com/cositools/cosipy/issues/636
reported-error: "ValueError: given numpy array has byte order different from the native byte order." (FITS files are big-endian; astropy keeps the livetime column big-endian and torch.as_tensor() cannot take it; fix: convert the FITS table columns to native byte order in SpacecraftHistory._open_fits)
outcome: ValueError: given numpy array has byte order different from the native byte order. Conversion between byte orders is currently not supported. at line 107
root-cause: line 68
expect: DG004
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
rng = np.random.default_rng(3)
out_dir = tempfile.mkdtemp()
FITS_BLOCK = 2880


# ---- stand-in for astropy.io.fits / QTable: a one-HDU binary table, big-endian as the FITS standard requires ----
def write_fits_table(path, columns, meta):
    cards = [f"{'XTENSION':8}= 'BINTABLE'", f"{'NAXIS2':8}= {len(next(iter(columns.values()))[0])}",
             f"{'TFIELDS':8}= {len(columns)}"]
    for i, (name, col) in enumerate(columns.items(), start=1):
        cards += [f"TTYPE{i:<3d}= '{name}'", f"TFORM{i:<3d}= '1D'", f"TUNIT{i:<3d}= '{col[1]}'"]
    cards += [f"{key:8}= '{value}'" for key, value in meta.items()] + ["END"]
    header = "".join(card.ljust(80) for card in cards)
    header = header.ljust(-(-len(header) // FITS_BLOCK) * FITS_BLOCK).encode("ascii")
    rows = np.empty(len(next(iter(columns.values()))[0]), dtype=[(name, ">f8") for name in columns])
    for name, (values, _unit) in columns.items():
        rows[name] = values
    data = rows.tobytes()
    with open(path, "wb") as fh:
        fh.write(header + data + b"\0" * (-len(data) % FITS_BLOCK))


def qtable_read(path):
    """Returns the columns as views of the file's records: dtype '>f8', as astropy's table reader leaves them."""
    raw = open(path, "rb").read()
    cards = []
    while not cards or not cards[-1].startswith("END"):
        cards.append(raw[80 * len(cards):80 * len(cards) + 80].decode("ascii"))
    end = len(cards) - 1
    keys = {card[:8].strip(): card[10:].strip().strip("'").strip() for card in cards[:end]}
    names = [keys[f"TTYPE{i}"] for i in range(1, int(keys["TFIELDS"]) + 1)]
    start = -(-(end + 1) * 80 // FITS_BLOCK) * FITS_BLOCK
    rows = np.frombuffer(raw, dtype=[(name, ">f8") for name in names], count=int(keys["NAXIS2"]), offset=start)
    return {name: rows[name] for name in names}, keys


class SpacecraftHistory:
    supported_file_versions = ["20260130"]

    def __init__(self, obstime, livetime):
        self.obstime = obstime          # unix seconds, one more entry than livetime
        self.livetime = livetime        # seconds the instrument was live in each interval
        self.tstart, self.tstop = obstime[0], obstime[-1]

    def write_fits(self, filename):
        write_fits_table(filename, {"TimeStamp": (self.obstime, "s"),
                                    "LiveTime": (np.append(self.livetime, 0.0), "s")},
                         {"VERSION": self.supported_file_versions[-1]})

    @classmethod
    def _open_fits(cls, filename):
        t, meta = qtable_read(filename)  # root-cause
        if meta.get("VERSION") not in cls.supported_file_versions:
            raise ValueError(f"FITS orientation file has version {meta.get('VERSION')}")
        time_stamps = np.asarray(t["TimeStamp"], dtype=np.float64)   # Time(t['TimeStamp'], format='unix')
        livetime = t["LiveTime"][:-1]                                 # Quantity: keeps the column's dtype
        return cls(time_stamps, livetime)


# ---- a simulated orbit: 1-minute intervals, SAA passages with zero livetime, dead time elsewhere ----
obstime = 1.8e9 + 60.0 * np.arange(24 * 60 + 1)
livetime = 60.0 * rng.uniform(0.88, 0.97, obstime.size - 1)
livetime[(np.arange(livetime.size) % 95) < 12] = 0.0
SpacecraftHistory(obstime, livetime).write_fits(os.path.join(out_dir, "orientation.fits"))

true_rate = lambda t: 30.0 * (1.0 + 0.35 * np.sin(2 * np.pi * (t - obstime[0]) / 5580.0))
counts = rng.poisson(true_rate(0.5 * (obstime[:-1] + obstime[1:])) * livetime)
event_times = np.concatenate([rng.uniform(a, a + 60.0, n) for a, n in zip(obstime[:-1], counts)])


# ---- NFBackground stand-in: a rate network of time (trained beforehand on simulated background) ----
class NFBackground(nn.Module):
    def __init__(self, t0, span):
        super().__init__()
        self.t0, self.span = t0, span
        self.net = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 1))

    def evaluate_rate(self, time):
        phase = (2 * np.pi * (time - self.t0) / 5580.0).float()
        return 25.0 * F.softplus(self.net(torch.cat([torch.sin(phase), torch.cos(phase)], dim=1))).view(-1)


class FreeNormNFUnbinnedBackground:
    def __init__(self, model, event_times, sc_history):
        self._model, self._event_times, self._sc_history = model, event_times, sc_history
        self._expected_counts = None

    def _integrate_rate(self):
        mid_times = torch.as_tensor((self._sc_history.obstime[:-1] + self._sc_history.obstime[1:]) / 2).view(-1, 1)
        rate = self._model.evaluate_rate(mid_times)
        return torch.sum(rate * torch.as_tensor(self._sc_history.livetime))  # fails-here

    def expected_counts(self):
        if self._expected_counts is None:
            self._expected_counts = self._integrate_rate().item()
        return self._expected_counts

    def expectation_density(self):
        time = torch.as_tensor(self._event_times).view(-1, 1)
        return self._model.evaluate_rate(time).double()


sc_history = SpacecraftHistory._open_fits(os.path.join(out_dir, "orientation.fits"))
model = NFBackground(float(obstime[0]), float(obstime[-1] - obstime[0]))
with torch.no_grad():
    model.net[2].bias.fill_(0.0)
background = FreeNormNFUnbinnedBackground(model, event_times, sc_history)

# unbinned Poisson likelihood in the free normalisation: -log L = norm * N_exp - sum log(norm * density)
log_norm = torch.zeros((), dtype=torch.float64, requires_grad=True)
optimizer = torch.optim.Adam([log_norm], lr=0.05)
n_expected = background.expected_counts()
density = background.expectation_density().detach()
for step in range(200):
    norm = log_norm.exp()
    nll = norm * n_expected - torch.log(norm * density + 1e-12).sum()
    optimizer.zero_grad()
    nll.backward()
    optimizer.step()
print(f"{event_times.size} events, fitted background norm {log_norm.exp().item():.3f}")

"""A depthcharge-style de novo peptide sequencing model (re-typed: FloatEncoder/PeakEncoder/PositionalEncoder, a SpectrumEncoder over (m/z, intensity) peaks, PeptideTransformerDecoder over amino-acid tokens with precursor mass and charge, generate_tgt_mask returning a bool causal mask, teacher-forced next-token training): the decoder casts the bool causal mask with .type_as(precursors), so the masked future positions become +1.0 added to the attention scores instead of being blocked, and every position attends to the residues it is trained to predict
source: https://github.com/wfondrie/depthcharge/pull/38
reported-error: "change tgt_mask to boolean": "Current depthcharge peptide decoder converts tgt_mask from bool to float, allowing tokens to attend to the future during training" (no error is raised; fixed by keeping the mask bool: generate_tgt_mask(...).to(self.device))
outcome: ok (silent: the decoder's prediction for residue 3 changes when residues 3.. of the input change, i.e. the causal mask does not mask)
root-cause: line 104
expect: DG004
"""
import math

import numpy as np
import torch
import torch.nn.functional as F

torch.manual_seed(0)
rng = np.random.default_rng(0)

# ---- encoders/sinusoidal.py ----
class FloatEncoder(torch.nn.Module):
    def __init__(self, d_model, min_wavelength=0.001, max_wavelength=10000):
        super().__init__()
        d_sin = math.ceil(d_model / 2)
        d_cos = d_model - d_sin
        base = min_wavelength / (2 * np.pi)
        scale = max_wavelength / min_wavelength
        sin_exp = torch.arange(0, d_sin).float() / (d_sin - 1)
        cos_exp = (torch.arange(d_sin, d_model).float() - d_sin) / (d_cos - 1)
        self.register_buffer("sin_term", base * (scale**sin_exp))
        self.register_buffer("cos_term", base * (scale**cos_exp))

    def forward(self, X):
        sin_mz = torch.sin(X[:, :, None] / self.sin_term)
        cos_mz = torch.cos(X[:, :, None] / self.cos_term)
        return torch.cat([sin_mz, cos_mz], axis=-1)


class PeakEncoder(torch.nn.Module):
    def __init__(self, d_model):
        super().__init__()
        self.mz_encoder = FloatEncoder(d_model)
        self.int_encoder = FloatEncoder(d_model, min_wavelength=1e-6, max_wavelength=1)
        self.combiner = torch.nn.Linear(2 * d_model, d_model, bias=False)

    def forward(self, X):
        encoded = torch.cat([self.mz_encoder(X[:, :, 0]), self.int_encoder(X[:, :, 1])], dim=2)
        return self.combiner(encoded)


class PositionalEncoder(FloatEncoder):
    def __init__(self, d_model, min_wavelength=1.0, max_wavelength=1e5):
        super().__init__(d_model, min_wavelength, max_wavelength)

    def forward(self, X):
        pos = torch.arange(X.shape[1]).type_as(self.sin_term)[None, :].expand(X.shape[0], -1)
        return X + super().forward(pos)


# ---- transformers/spectra.py ----
class SpectrumTransformerEncoder(torch.nn.Module):
    def __init__(self, d_model=64, nhead=4, dim_feedforward=128, n_layers=1, dropout=0.0):
        super().__init__()
        self.latent_spectrum = torch.nn.Parameter(torch.randn(1, 1, d_model))
        self.peak_encoder = PeakEncoder(d_model)
        layer = torch.nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward, batch_first=True, dropout=dropout)
        self.transformer_encoder = torch.nn.TransformerEncoder(layer, num_layers=n_layers, enable_nested_tensor=False)

    def forward(self, spectra):
        zeros = ~spectra.sum(dim=2).bool()
        mask = torch.cat([torch.tensor([[False]] * spectra.shape[0]), zeros], dim=1)
        peaks = self.peak_encoder(spectra)
        latent_spectra = self.latent_spectrum.expand(peaks.shape[0], -1, -1)
        peaks = torch.cat([latent_spectra, peaks], dim=1)
        return self.transformer_encoder(peaks, src_key_padding_mask=mask), mask


# ---- transformers/peptides.py ----
class _PeptideTransformer(torch.nn.Module):
    def __init__(self, n_tokens, d_model, positional_encoder, max_charge):
        super().__init__()
        self.positional_encoder = PositionalEncoder(d_model) if positional_encoder else torch.nn.Identity()
        self.charge_encoder = torch.nn.Embedding(max_charge + 1, d_model)
        self.aa_encoder = torch.nn.Embedding(n_tokens + 1, d_model, padding_idx=0)

    @property
    def device(self):
        return next(self.parameters()).device


class PeptideTransformerDecoder(_PeptideTransformer):
    def __init__(self, n_tokens, d_model=64, nhead=4, dim_feedforward=128, n_layers=1, dropout=0, positional_encoder=True, max_charge=5):
        super().__init__(n_tokens=n_tokens, d_model=d_model, positional_encoder=positional_encoder, max_charge=max_charge)
        self.mass_encoder = FloatEncoder(d_model)
        layer = torch.nn.TransformerDecoderLayer(d_model=d_model, nhead=nhead, dim_feedforward=dim_feedforward, batch_first=True, dropout=dropout)
        self.transformer_decoder = torch.nn.TransformerDecoder(layer, num_layers=n_layers)
        self.final = torch.nn.Linear(d_model, self.aa_encoder.num_embeddings - 1)

    def forward(self, tokens, precursors, memory, memory_key_padding_mask):
        tokens = self.aa_encoder(tokens)
        masses = self.mass_encoder(precursors[:, None, 0])
        charges = self.charge_encoder(precursors[:, 1].int() - 1)
        precursors = masses + charges[:, None, :]
        tgt = torch.cat([precursors, tokens], dim=1)
        tgt_key_padding_mask = tgt.sum(axis=2) == 0
        tgt = self.positional_encoder(tgt)
        tgt_mask = generate_tgt_mask(tgt.shape[1]).type_as(precursors)  # root-cause
        preds = self.transformer_decoder(tgt=tgt, memory=memory, tgt_mask=tgt_mask, tgt_key_padding_mask=tgt_key_padding_mask,
                                         memory_key_padding_mask=memory_key_padding_mask.to(self.device))
        return self.final(preds)


def generate_tgt_mask(sz):
    """Generate a square mask for the sequence (True = may not attend)."""
    return ~torch.triu(torch.ones(sz, sz, dtype=torch.bool)).transpose(0, 1)


# ---- synthetic PSMs: peptides, their b/y-ion spectra, precursors ----
AA_MASS = {"A": 71.03711, "C": 103.00919, "D": 115.02694, "E": 129.04259, "F": 147.06841, "G": 57.02146,
           "H": 137.05891, "I": 113.08406, "K": 128.09496, "L": 113.08406, "M": 131.04049, "N": 114.04293,
           "P": 97.05276, "Q": 128.05858, "R": 156.10111, "S": 87.03203, "T": 101.04768, "V": 99.06841,
           "W": 186.07931, "Y": 163.06333}
AAS = sorted(AA_MASS)
token_of = {aa: i + 1 for i, aa in enumerate(AAS)}  # 0 is padding
PROTON, H2O = 1.007276, 18.010565


def make_psm(length):
    pep = [AAS[i] for i in rng.integers(0, len(AAS), length)]
    masses = np.array([AA_MASS[a] for a in pep])
    b = np.cumsum(masses)[:-1] + PROTON
    y = np.cumsum(masses[::-1])[:-1] + H2O + PROTON
    mz = np.concatenate([b, y])
    inten = rng.uniform(0.2, 1.0, mz.size)
    charge = int(rng.integers(2, 4))
    precursor_mz = (masses.sum() + H2O + charge * PROTON) / charge
    return pep, np.stack([mz, inten], axis=1), (precursor_mz, charge)


def collate(psms, n_peaks=24, seq_len=8):
    spectra = np.zeros((len(psms), n_peaks, 2), dtype=np.float32)
    tokens = np.zeros((len(psms), seq_len), dtype=np.int64)
    precursors = np.zeros((len(psms), 2), dtype=np.float32)
    for i, (pep, peaks, (pmz, z)) in enumerate(psms):
        spectra[i, : len(peaks)] = peaks
        tokens[i, : len(pep)] = [token_of[a] for a in pep]
        precursors[i] = (pmz, z)
    return torch.from_numpy(spectra), torch.from_numpy(precursors), torch.from_numpy(tokens)


train = [make_psm(8) for _ in range(256)]
encoder = SpectrumTransformerEncoder()
decoder = PeptideTransformerDecoder(n_tokens=len(AAS))
opt = torch.optim.Adam(list(encoder.parameters()) + list(decoder.parameters()), lr=1e-3)
for epoch in range(3):
    for start in range(0, len(train), 32):
        spectra, precursors, tokens = collate(train[start:start + 32])
        memory, mem_mask = encoder(spectra)
        scores = decoder(tokens, precursors, memory, mem_mask)  # (bs, 1 + len, n_aa)
        # position i (precursor + tokens[:i]) predicts tokens[i]
        loss = F.cross_entropy(scores[:, :-1].reshape(-1, scores.size(-1)), (tokens - 1).reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch}: train loss {loss.item():.4f}")

# causal check: the prediction for residue 3 must not depend on residues 3..7 of the input
encoder.eval()
decoder.eval()
with torch.no_grad():
    spectra, precursors, tokens = collate([make_psm(8) for _ in range(16)])
    memory, mem_mask = encoder(spectra)
    altered = tokens.clone()
    altered[:, 3:] = torch.from_numpy(rng.integers(1, len(AAS) + 1, (16, 5)))
    a = decoder(tokens, precursors, memory, mem_mask)[:, 3]
    b = decoder(altered, precursors, memory, mem_mask)[:, 3]
print(f"future-token leak at position 3: {(a - b).abs().max().item():.6f}")

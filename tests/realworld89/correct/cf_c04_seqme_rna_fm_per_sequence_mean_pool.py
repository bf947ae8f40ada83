"""The seqme RNA-FM evaluation of cf04 as PR #32 fixes it: embed() no longer builds a CPU mask from NumPy lengths but averages each sequence's own rows of the hidden state (hidden_state[i, :length].mean(dim=-2), stacked), so the pooling runs where the model ran and the Frechet distance between generated and reference embeddings is computed (the accelerator stand-in falls back to the CPU here, so the run can print its numbers)
source: https://github.com/szczurek-lab/seqme/pull/32
reported-error: (none; the fixed situation of cf04)
outcome: ok
root-cause: -
expect: none
"""
from typing import Literal

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
rng = np.random.default_rng(0)

# the library's default device: cuda where a CUDA device is present, else the CPU
ACCELERATOR = "cuda" if torch.cuda.is_available() else "cpu"


# ---- stand-in for the `fm` package (RNA-FM): codon alphabet, batch converter, a 12-layer encoder ------------------
class CodonAlphabet:
    def __init__(self):
        bases = "ACGU"
        self.codons = [a + b + c for a in bases for b in bases for c in bases]
        self.cls_idx, self.padding_idx, self.eos_idx = 0, 1, 2
        self.tok_to_idx = {c: i + 3 for i, c in enumerate(self.codons)}

    def get_batch_converter(self):
        def convert(named_batch):
            labels = [name for name, _ in named_batch]
            strs = [seq for _, seq in named_batch]
            n = max(len(s) // 3 for s in strs) + 2
            tokens = torch.full((len(strs), n), self.padding_idx, dtype=torch.int64)
            for i, s in enumerate(strs):
                ids = [self.tok_to_idx[s[j:j + 3].replace("T", "U")] for j in range(0, len(s), 3)]
                tokens[i, :len(ids) + 2] = torch.tensor([self.cls_idx] + ids + [self.eos_idx])
            return labels, strs, tokens
        return convert


class RNABertModel(nn.Module):
    def __init__(self, alphabet, num_layers=12, embed_dim=32, heads=4):
        super().__init__()
        self.padding_idx = alphabet.padding_idx
        self.embed_tokens = nn.Embedding(len(alphabet.codons) + 3, embed_dim, padding_idx=alphabet.padding_idx)
        self.embed_positions = nn.Embedding(512, embed_dim)
        self.layers = nn.ModuleList([nn.TransformerEncoderLayer(embed_dim, heads, 2 * embed_dim, dropout=0.0,
                                                                batch_first=True) for _ in range(num_layers)])
        self.emb_layer_norm_after = nn.LayerNorm(embed_dim)

    def forward(self, tokens, repr_layers=()):
        positions = torch.arange(tokens.size(1), device=tokens.device).unsqueeze(0)
        x = self.embed_tokens(tokens) + self.embed_positions(positions)
        representations = {0: x} if 0 in repr_layers else {}
        for layer_idx, layer in enumerate(self.layers, start=1):
            x = layer(x)
            if layer_idx in repr_layers:
                representations[layer_idx] = self.emb_layer_norm_after(x) if layer_idx == len(self.layers) else x
        return {"logits": None, "representations": representations}


class fm:  # noqa: N801 - the package namespace
    class pretrained:  # noqa: N801
        @staticmethod
        def mrna_fm_t12():
            alphabet = CodonAlphabet()
            return RNABertModel(alphabet), alphabet

        rna_fm_t12 = mrna_fm_t12


# ---- seqme/models/rna_fm.py ---------------------------------------------------------------------------------------
class RNA_FM:
    def __init__(self, *, model_name: Literal["mRNA", "ncRNA"] = "mRNA", device: str | None = None,
                 batch_size: int = 256, verbose: bool = False):
        if device is None:
            device = ACCELERATOR
        self.model_name = model_name
        self.batch_size = batch_size
        self.device = device
        self.verbose = verbose
        model, alphabet = fm.pretrained.rna_fm_t12() if self.model_name == "ncRNA" else fm.pretrained.mrna_fm_t12()
        batch_converter = alphabet.get_batch_converter()
        self.model = model.to(device).eval()
        self.batch_converter = batch_converter

    def __call__(self, sequences: list[str]) -> np.ndarray:
        return self.embed(sequences)

    def embed(self, sequences: list[str], layer: int = 12) -> np.ndarray:
        if self.model_name == "mRNA":
            for sequence in sequences:
                if len(sequence) % 3 != 0:
                    raise ValueError(f"Found non-codon aligned sequence with {len(sequence)}) nucleotides.")
        embeddings = []
        with torch.inference_mode():
            for i in range(0, len(sequences), self.batch_size):
                batch = sequences[i: i + self.batch_size]
                named_batch = [("", b) for b in batch]
                tokens = self.batch_converter(named_batch)[2].to(self.device)

                results = self.model(tokens, repr_layers=[layer])
                hidden_state = results["representations"][layer]

                lengths = [len(s) // 3 if self.model_name == "mRNA" else len(s) for s in batch]
                means = [hidden_state[i, :length].mean(dim=-2) for i, length in enumerate(lengths)]
                embed = torch.stack(means, dim=0)

                embeddings.append(embed.cpu().numpy())
        return np.concatenate(embeddings)


# ---- seqme-style metric: Frechet distance between the embedding sets of two sequence groups ----------------------
def frechet_distance(a: np.ndarray, b: np.ndarray) -> float:
    mu_a, mu_b = a.mean(0), b.mean(0)
    cov_a, cov_b = np.cov(a, rowvar=False), np.cov(b, rowvar=False)
    eig_a, vec_a = np.linalg.eigh(cov_a)
    sqrt_a = (vec_a * np.sqrt(np.clip(eig_a, 0, None))) @ vec_a.T
    covmean_eig = np.linalg.eigvalsh(sqrt_a @ cov_b @ sqrt_a)
    return float(((mu_a - mu_b) ** 2).sum() + np.trace(cov_a) + np.trace(cov_b)
                 - 2 * np.sqrt(np.clip(covmean_eig, 0, None)).sum())


def random_cds(n_codons):
    body = "".join(rng.choice(list("ACGU"), size=3 * n_codons))
    return "AUG" + body + "UAA"


reference = [random_cds(int(rng.integers(20, 60))) for _ in range(48)]
generated = [random_cds(int(rng.integers(20, 60))) for _ in range(48)]
model = RNA_FM(model_name="mRNA", batch_size=16)
ref_emb = model(reference)
gen_emb = model(generated)
print(f"embeddings {ref_emb.shape} / {gen_emb.shape}; FBD(generated, reference) = {frechet_distance(gen_emb, ref_emb):.4f}")

"""Explaining a RoBERTa-style IMDb sentiment classifier with LIME as thermostat's ExplainerLimeBase did (DFKI-NLP/thermostat #3): after a short fine-tuning on synthetic reviews, captum's LimeBase (re-typed) perturbs each batch of token ids with perturb_func, which adds Gaussian noise with original_input + torch.randn_like(original_input); the explained input is the int64 input_ids tensor the embedding layer needs, and the normal sampler has no integer kernel
source: https://github.com/DFKI-NLP/thermostat/issues/3
reported-error: "LIME : \"normal_kernel_cuda\" not implemented for 'Long'" in captum/attr/_core/lime.py attribute -> thermostat/explainers/lime.py line 43, perturb_func: return original_input + torch.randn_like(original_input); the fix (commit feecc1b, 'Fixed LIME explainer.') replaced the noise by masking random tokens with the pad token
outcome: NotImplementedError: "normal_kernel_cpu" not implemented for 'Long' at line 106
root-cause: line 106
expect: DG005
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
rng = np.random.default_rng(0)
out_dir = tempfile.mkdtemp()
device = "cpu"
BOS, PAD, EOS, VOCAB, MAX_LEN = 0, 1, 2, 300, 48
POSITIVE, NEGATIVE = range(10, 30), range(30, 50)


def synthetic_review():
    n = int(rng.integers(12, MAX_LEN - 2))
    words = rng.integers(50, VOCAB, n)
    label = int(rng.integers(0, 2))
    k = int(rng.integers(2, 5))
    words[rng.choice(n, k, replace=False)] = rng.choice(list(POSITIVE if label else NEGATIVE), k)
    ids = np.full(MAX_LEN, PAD)
    ids[: n + 2] = np.concatenate([[BOS], words, [EOS]])
    return ids, label


reviews = [synthetic_review() for _ in range(400)]
input_ids = torch.from_numpy(np.stack([r[0] for r in reviews]))  # int64 token ids
labels = torch.tensor([r[1] for r in reviews])
attention_mask = (input_ids != PAD).long()


class RobertaForSequenceClassification(nn.Module):
    def __init__(self, vocab=VOCAB, hidden=64, heads=4, layers=2):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, hidden, padding_idx=PAD)
        self.position_embeddings = nn.Embedding(MAX_LEN, hidden)
        layer = nn.TransformerEncoderLayer(hidden, heads, 4 * hidden, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.classifier = nn.Sequential(nn.Linear(hidden, hidden), nn.Tanh(), nn.Linear(hidden, 2))

    def forward(self, input_ids, attention_mask):
        pos = torch.arange(input_ids.size(1), device=input_ids.device)
        h = self.embeddings(input_ids) + self.position_embeddings(pos)
        h = self.encoder(h, src_key_padding_mask=attention_mask == 0)
        return self.classifier(h[:, 0])


model = RobertaForSequenceClassification().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
for epoch in range(3):
    model.train()
    for i in range(0, 320, 16):
        logits = model(input_ids[i:i + 16], attention_mask[i:i + 16])
        loss = F.cross_entropy(logits, labels[i:i + 16])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        acc = (model(input_ids[320:], attention_mask[320:]).argmax(-1) == labels[320:]).float().mean()
    print(f"epoch {epoch} loss {loss.item():.4f} val_acc {acc.item():.3f}")
torch.save(model.state_dict(), os.path.join(out_dir, "textattack-roberta-base-imdb.pt"))


class LimeBase:
    """captum.attr.LimeBase (re-typed): sample perturbations, weight them, fit an interpretable linear model."""

    def __init__(self, forward_func, similarity_func, perturb_func, to_interp_rep_transform, alpha=1.0):
        self.forward_func, self.similarity_func = forward_func, similarity_func
        self.perturb_func, self.to_interp = perturb_func, to_interp_rep_transform
        self.alpha = alpha

    @torch.no_grad()
    def attribute(self, inputs, target, additional_forward_args, n_samples=50):
        feats, outs, weights = [], [], []
        for _ in range(n_samples):
            curr_sample = self.perturb_func(inputs)
            interp = self.to_interp(curr_sample, inputs)
            out = F.softmax(self.forward_func(curr_sample, *additional_forward_args), dim=-1)[:, target]
            feats.append(interp.float().flatten(1))
            outs.append(out)
            weights.append(self.similarity_func(inputs, curr_sample, interp).expand(out.shape))
        X, y, w = torch.cat(feats), torch.cat(outs), torch.cat(weights).sqrt().unsqueeze(1)
        ridge = (X * w).T @ (X * w) + self.alpha * torch.eye(X.size(1))  # linear_model.Ridge, weighted
        return torch.linalg.solve(ridge, (X * w).T @ (y.unsqueeze(1) * w)).squeeze(1)


kernel_width = 1.1


def similarity_kernel(original_input, perturbed_input, perturbed_interpretable_input, **kwargs):
    l2_dist = torch.norm(original_input - perturbed_input)
    return torch.exp(-(l2_dist ** 2) / (kernel_width ** 2))


def perturb_func(original_input, **kwargs):
    return original_input + torch.randn_like(original_input)  # root-cause  # fails-here


def to_interp_rep_transform_custom(curr_sample, original_input, **kwargs):
    return curr_sample


explainer = LimeBase(model, similarity_kernel, perturb_func, to_interp_rep_transform_custom)
for start in range(320, 326, 2):  # "batch_size": 2 in the LimeBase config
    batch = {"input_ids": input_ids[start:start + 2], "attention_mask": attention_mask[start:start + 2],
             "labels": labels[start:start + 2]}
    for j in range(2):
        ids = batch["input_ids"][j:j + 1]
        attributions = explainer.attribute(ids, target=int(batch["labels"][j]),
                                           additional_forward_args=(batch["attention_mask"][j:j + 1],))
        top = attributions.topk(3).indices
        print(f"instance {start + j}: label {int(batch['labels'][j])} top tokens {ids[0, top].tolist()}")

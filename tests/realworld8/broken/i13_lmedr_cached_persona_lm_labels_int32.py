"""Persona-chat evaluation (LMEDR style) from a cached, padded dataset: the language-model labels are padded into an int32 numpy matrix to keep the cache small, and the eval step's cross-entropy gets them as an IntTensor
source: https://github.com/Chenrj233/LMEDR/issues/8
reported-error: Engine run is terminating due to exception: Expected object of scalar type Long but got scalar type Int for argument #2 'target' in call to _thnn_nll_loss_forward
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 69
root-cause: line 22
expect: DG006
"""
import argparse
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD_LABEL = -100


def pad_dataset(dialogs, max_len):
    input_ids = np.zeros((len(dialogs), max_len), dtype=np.int64)
    lm_labels = np.full((len(dialogs), max_len), PAD_LABEL, dtype=np.int32)  # root-cause
    cls_labels = np.zeros(len(dialogs), dtype=np.int64)
    for i, (tokens, reply_start, label) in enumerate(dialogs):
        input_ids[i, : len(tokens)] = tokens
        lm_labels[i, reply_start : len(tokens)] = tokens[reply_start:]
        cls_labels[i] = label
    return {"input_ids": torch.from_numpy(input_ids), "lm_labels": torch.from_numpy(lm_labels), "cls_labels": torch.from_numpy(cls_labels)}


def get_data_loaders(cache_path, vocab=100, n=24, max_len=16, seed=0):
    if not os.path.exists(cache_path):
        rng = np.random.default_rng(seed)
        dialogs = []
        for _ in range(n):
            length = int(rng.integers(8, max_len))
            dialogs.append((rng.integers(1, vocab, length), length // 2, int(rng.integers(0, 2))))
        torch.save(pad_dataset(dialogs, max_len), cache_path)
    data = torch.load(cache_path)
    return [{k: v[i : i + 6] for k, v in data.items()} for i in range(0, n, 6)]


class LMEDRModel(nn.Module):
    def __init__(self, vocab=100, dim=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.lm_head = nn.Linear(dim, vocab)
        self.cls_head = nn.Linear(dim, 2)

    def forward(self, input_ids):
        h, _ = self.rnn(self.embed(input_ids))
        return self.lm_head(h), self.cls_head(h[:, -1])


def inference(model, batch):
    model.eval()
    with torch.no_grad():
        lm_logits, cls_logits = model(batch["input_ids"])
        tmp_lmlogits = lm_logits[:, :-1].contiguous()
        lmlabels = batch["lm_labels"][:, 1:].contiguous()
        return (tmp_lmlogits, cls_logits), (lmlabels, batch["cls_labels"])


def evaluate(model, loader):
    total = 0.0
    for batch in loader:
        (lm_logits, cls_logits), (lmlabels, clslabel) = inference(model, batch)
        nll = F.cross_entropy(lm_logits.view(-1, lm_logits.size(-1)), lmlabels.view(-1), ignore_index=PAD_LABEL)  # fails-here
        total += nll.item() + F.cross_entropy(cls_logits, clslabel).item()
    return total / len(loader)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--dataset_cache", default=os.path.join(tempfile.mkdtemp(), "persona_cache.pt"))
    parser.add_argument("--eval", action="store_true", default=True)
    args = parser.parse_args()
    model = LMEDRModel()
    loader = get_data_loaders(args.dataset_cache)
    print("eval loss", evaluate(model, loader))

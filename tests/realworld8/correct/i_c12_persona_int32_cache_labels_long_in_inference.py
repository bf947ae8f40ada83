"""Persona-chat evaluation from the same int32-padded cache, with the maintainers' fix: the inference step returns (lmlabels.long(), clslabel), so the cross-entropy far below receives int64 targets
source: https://github.com/Chenrj233/LMEDR/issues/8
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD_LABEL = -100
cache_path = os.path.join(tempfile.mkdtemp(), "persona_cache.pt")
rng = np.random.default_rng(0)
input_ids = rng.integers(1, 100, (12, 16))
lm_labels = np.full((12, 16), PAD_LABEL, dtype=np.int32)
lm_labels[:, 8:] = input_ids[:, 8:]
torch.save({"input_ids": torch.from_numpy(input_ids), "lm_labels": torch.from_numpy(lm_labels), "cls_labels": torch.from_numpy(rng.integers(0, 2, 12))}, cache_path)
data = torch.load(cache_path)

embed, rnn, lm_head, cls_head = nn.Embedding(100, 32), nn.GRU(32, 32, batch_first=True), nn.Linear(32, 100), nn.Linear(32, 2)


def inference(batch):
    with torch.no_grad():
        h, _ = rnn(embed(batch["input_ids"]))
        tmp_lmlogits = lm_head(h)[:, :-1].contiguous()
        lmlabels = batch["lm_labels"][:, 1:].contiguous()
        return (tmp_lmlogits, cls_head(h[:, -1])), (lmlabels.long(), batch["cls_labels"])


(lm_logits, cls_logits), (lmlabels, clslabel) = inference(data)
nll = F.cross_entropy(lm_logits.view(-1, lm_logits.size(-1)), lmlabels.view(-1), ignore_index=PAD_LABEL)
print("lm nll", round(nll.item(), 4), "cls", round(F.cross_entropy(cls_logits, clslabel).item(), 4))

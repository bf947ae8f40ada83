"""EPITOME empathy model: the preprocessing script stores the level columns as int32, the TensorDataset/dict batch carries them unchanged, and the multi-task model computes CrossEntropyLoss(logits_empathy, empathy_labels) inside forward
source: https://github.com/behavioral-data/Empathy-Mental-Health/issues/16
reported-error: RuntimeError: expected scalar type Long but found Int (in models.py forward: loss_empathy = loss_fct(logits_empathy.view(-1, self.empathy_num_labels), empathy_labels.view(-1)))
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 43
root-cause: line 25
expect: DG006
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def load_split(n=48, seq=12, seed=0):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({"level": rng.integers(0, 3, n), "rationale_len": rng.integers(0, seq, n)})
    df = df.astype({"level": "int32", "rationale_len": "int32"})
    ids = rng.integers(1, 500, (n, seq))
    return df, ids


def make_dataset(df, ids):
    input_ids_SP = torch.tensor(ids, dtype=torch.long)
    empathy_labels = torch.tensor(df["level"].values)  # root-cause
    rationale = (torch.arange(ids.shape[1])[None, :] < torch.tensor(df["rationale_len"].values)[:, None]).long()
    return TensorDataset(input_ids_SP, empathy_labels, rationale)


class BiEncoderAttentionWithRationaleClassification(nn.Module):
    def __init__(self, vocab=500, d=32, empathy_num_labels=3):
        super().__init__()
        self.empathy_num_labels = empathy_num_labels
        self.embed = nn.Embedding(vocab, d)
        self.empathy_classifier = nn.Linear(d, empathy_num_labels)
        self.rationale_classifier = nn.Linear(d, 2)

    def forward(self, input_ids_SP, empathy_labels=None, rationale_labels=None, lambda_EI=1.0, lambda_RE=0.5):
        h = self.embed(input_ids_SP)
        logits_empathy = self.empathy_classifier(h.mean(1))
        logits_rationale = self.rationale_classifier(h)
        loss_fct = nn.CrossEntropyLoss()
        loss_empathy = loss_fct(logits_empathy.view(-1, self.empathy_num_labels), empathy_labels.view(-1))  # fails-here
        loss_rationale = loss_fct(logits_rationale.view(-1, 2), rationale_labels.view(-1))
        loss = lambda_EI * loss_empathy + lambda_RE * loss_rationale
        return loss, loss_empathy, loss_rationale, logits_empathy, logits_rationale


if __name__ == "__main__":
    model = BiEncoderAttentionWithRationaleClassification()
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
    loader = DataLoader(make_dataset(*load_split()), batch_size=16, shuffle=True)
    for step, batch in enumerate(loader):
        b = {"input_ids_SP": batch[0], "empathy_labels": batch[1], "rationale_labels": batch[2]}
        loss, loss_empathy, loss_rationale, logits_empathy, logits_rationale = model(**b)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())

"""The ms-swift-style --num_labels 1 regression fine-tune of bk06 (modelscope/ms-swift #3260) with the handling of PR #3621: the template asks the config's problem_type (regression when num_labels is 1), keeps float labels for regression and int(label) only for single-label classification, and the collator builds float32 labels for regression and torch.long ones otherwise, so the model learns the scores; the int64 token ids and attention mask made by torch.tensor of Python ints are kept
source: https://github.com/modelscope/ms-swift/issues/3260
reported-error: (none filed; the fixed situation of bk06)
outcome: ok
root-cause: -
expect: none
"""
import argparse
import json
import os
import tempfile
import zlib

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

torch.manual_seed(0)
VOCAB = 256
parser = argparse.ArgumentParser()
parser.add_argument("--num_labels", type=int, default=1)
parser.add_argument("--task_type", default=None)
parser.add_argument("--metric", default="regression")
parser.add_argument("--learning_rate", type=float, default=2e-3)
parser.add_argument("--num_train_epochs", type=int, default=25)
parser.add_argument("--per_device_train_batch_size", type=int, default=16)
args = parser.parse_args([])


class Config(dict):
    __getattr__ = dict.__getitem__
    __setattr__ = dict.__setitem__


class Qwen2ForSequenceClassification(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config, self.num_labels = config, config.num_labels
        self.embed_tokens = nn.Embedding(VOCAB, 32)
        self.layer = nn.GRU(32, 32, batch_first=True)
        self.score = nn.Linear(32, config.num_labels, bias=False)

    def forward(self, input_ids, attention_mask, labels=None):
        h, _ = self.layer(self.embed_tokens(input_ids))
        last = attention_mask.sum(1) - 1
        logits = self.score(h[torch.arange(len(last)), last])
        loss = None
        if labels is not None:
            if self.config.problem_type is None:
                if self.num_labels == 1:
                    self.config.problem_type = "regression"
                elif self.num_labels > 1 and (labels.dtype == torch.long or labels.dtype == torch.int):
                    self.config.problem_type = "single_label_classification"
                else:
                    self.config.problem_type = "multi_label_classification"
            if self.config.problem_type == "regression":
                loss = nn.MSELoss()(logits.squeeze(), labels.squeeze())
            elif self.config.problem_type == "single_label_classification":
                loss = nn.CrossEntropyLoss()(logits.view(-1, self.num_labels), labels.view(-1))
        return loss, logits


def get_model_tokenizer(num_labels=None, task_type=None):
    if task_type is None:
        task_type = "causal_lm" if num_labels is None else "seq_cls"
    assert task_type == "seq_cls", "this re-typing only builds the sequence-classification model"
    return Qwen2ForSequenceClassification(Config(num_labels=num_labels, problem_type=None)), task_type


class Template:
    def __init__(self, mode, config):
        self.mode, self.config = mode, config

    def _get_problem_type(self, labels=None):
        if self.config.problem_type is None:
            if self.config.num_labels == 1:
                self.config.problem_type = "regression"
            elif isinstance(labels, (list, tuple)):
                self.config.problem_type = "multi_label_classification"
            else:
                self.config.problem_type = "single_label_classification"
        return self.config.problem_type

    def encode(self, row):
        ids = [zlib.crc32(w.encode()) % (VOCAB - 1) + 1 for w in row["query"].split()]
        encoded = {"input_ids": ids}
        if self.mode == "seq_cls" and row.get("label") is not None:
            labels = row["label"]
            if self._get_problem_type(labels) == "single_label_classification":
                labels = int(labels)
            encoded["labels"] = labels
        return encoded

    def data_collator(self, batch):
        labels = [b.pop("labels") for b in batch if b.get("labels") is not None]
        width = max(len(b["input_ids"]) for b in batch)
        res = {"input_ids": torch.tensor([b["input_ids"] + [0] * (width - len(b["input_ids"])) for b in batch]),
               "attention_mask": torch.tensor([[1] * len(b["input_ids"]) + [0] * (width - len(b["input_ids"])) for b in batch])}
        if labels:
            if self._get_problem_type() == "regression":
                res["labels"] = torch.tensor(labels, dtype=torch.float32)
            else:
                res["labels"] = torch.tensor(labels, dtype=torch.long)
        return res


class EncodedDataset(torch.utils.data.Dataset):
    """Like a datasets.Dataset: every access returns a fresh dict (the collator pops "labels")."""

    def __init__(self, rows):
        self.rows = rows

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        return {k: list(v) if isinstance(v, list) else v for k, v in self.rows[i].items()}


# regression_normalized.json: reviews with a quality score normalised to [0, 1)
WORDS = ["bad", "poor", "dull", "fine", "okay", "good", "great", "superb"]
gen = torch.Generator().manual_seed(0)
rows = []
for _ in range(192):
    ws = torch.randint(0, len(WORDS), (5,), generator=gen)
    rows.append({"query": " ".join(WORDS[i] for i in ws), "label": round(float(ws.float().mean()) / len(WORDS), 4)})
data_path = os.path.join(tempfile.mkdtemp(), "regression_normalized.json")
with open(data_path, "w") as f:
    json.dump(rows, f)

with open(data_path) as f:
    dataset = json.load(f)
train_rows, val_rows = dataset[:160], dataset[160:]
model, task_type = get_model_tokenizer(args.num_labels, args.task_type)
template = Template(mode=task_type, config=model.config)
train_set = EncodedDataset([template.encode(r) for r in train_rows])
loader = DataLoader(train_set, batch_size=args.per_device_train_batch_size, shuffle=True, collate_fn=template.data_collator)
optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate)
seen_targets = set()
for epoch in range(args.num_train_epochs):
    for batch in loader:
        seen_targets.update(batch["labels"].tolist())
        loss, _ = model(**batch)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
print(f"train loss {loss.item():.4f}; distinct targets seen by the loss: {len(seen_targets)}")

model.eval()
with torch.no_grad():
    val = template.data_collator([{"input_ids": template.encode({"query": r["query"]})["input_ids"]} for r in val_rows])
    preds = model(**val)[1].squeeze(-1)
truth = torch.tensor([r["label"] for r in val_rows])
print(f"val MAE {(preds - truth).abs().mean().item():.4f} (score mean {truth.mean().item():.4f}, "
      f"prediction mean {preds.mean().item():.4f})")

"""A run_glue_no_trainer-style STS-B fine-tune started from the user's own checkpoint of a sentence-pair binary classifier: the first fine-tune's forward() wrote problem_type "single_label_classification" into the config that save_pretrained stored, and the STS-B run's AutoConfig.from_pretrained(path, num_labels=1) keeps it, so the sequence-classification head takes its cross-entropy branch with the float similarity scores as class targets
source: https://github.com/huggingface/transformers/issues/19181
reported-error: "RuntimeError: Expected object of scalar type Long but got scalar type Float for argument #2 'target' in call to _thnn_nll_loss_forward ... when I was finetuning the stsb by using a finetuned roberta ... The finetuned roberta was finetuned on a sentence binary classification task ... the downstream task stsb is a regression" (run_glue_no_trainer.py)
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Float at line 60
root-cause: line 133
expect: DG006
"""
import json
import os
import tempfile
import zlib

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

torch.manual_seed(0)
VOCAB = 512


class AutoConfig(dict):
    __getattr__ = dict.__getitem__
    __setattr__ = dict.__setitem__

    @classmethod
    def from_pretrained(cls, path, **kwargs):
        with open(os.path.join(path, "config.json")) as f:
            config = cls(json.load(f))
        config.update(kwargs)
        return config


class RobertaForSequenceClassification(nn.Module):
    """Embeddings + one encoder layer + RobertaClassificationHead (dense, tanh, out_proj) and the HF loss selection."""

    def __init__(self, config):
        super().__init__()
        self.config = config
        self.num_labels = config.num_labels
        self.embeddings = nn.Embedding(VOCAB, config.hidden_size, padding_idx=1)
        self.encoder = nn.TransformerEncoderLayer(config.hidden_size, 4, 64, dropout=0.0, batch_first=True)
        self.dense = nn.Linear(config.hidden_size, config.hidden_size)
        self.out_proj = nn.Linear(config.hidden_size, config.num_labels)

    def forward(self, input_ids, attention_mask, labels=None):
        h = self.encoder(self.embeddings(input_ids), src_key_padding_mask=attention_mask == 0)
        logits = self.out_proj(torch.tanh(self.dense(h[:, 0])))
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
                loss = nn.CrossEntropyLoss()(logits.view(-1, self.num_labels), labels.view(-1))  # fails-here
            else:
                loss = nn.BCEWithLogitsLoss()(logits, labels)
        return loss, logits

    def save_pretrained(self, path):
        os.makedirs(path, exist_ok=True)
        with open(os.path.join(path, "config.json"), "w") as f:
            json.dump(dict(self.config), f)
        torch.save(self.state_dict(), os.path.join(path, "pytorch_model.bin"))

    @classmethod
    def from_pretrained(cls, path, config, ignore_mismatched_sizes=False):
        model = cls(config)
        state = torch.load(os.path.join(path, "pytorch_model.bin"))
        own = model.state_dict()
        if ignore_mismatched_sizes:
            state = {k: v for k, v in state.items() if v.shape == own[k].shape}
        model.load_state_dict(state, strict=not ignore_mismatched_sizes)
        return model


def tokenize(a, b, max_len=24):
    ids = [0] + [2 + zlib.crc32(w.encode()) % (VOCAB - 2) for w in (a + " </s> " + b).split()][: max_len - 2] + [2]
    return ids + [1] * (max_len - len(ids)), [1] * len(ids) + [0] * (max_len - len(ids))


WORDS = "a man is playing guitar woman slicing onion dog runs park child reads book cat sleeps sofa".split()


def pair(g):
    a = [WORDS[i] for i in torch.randint(0, len(WORDS), (6,), generator=g)]
    b = list(a)
    k = int(torch.randint(0, 6, (1,), generator=g))
    for i in torch.randperm(6, generator=g)[:k]:
        b[i] = WORDS[int(torch.randint(0, len(WORDS), (1,), generator=g))]
    return " ".join(a), " ".join(b), k


def collate(batch):
    ids, mask, labels = zip(*batch)
    return {"input_ids": torch.tensor(ids), "attention_mask": torch.tensor(mask), "labels": torch.tensor(labels)}


def train(model, examples, epochs=2, lr=1e-3):
    loader = DataLoader(examples, batch_size=16, shuffle=True, collate_fn=collate)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    for epoch in range(epochs):
        for batch in loader:
            loss, _ = model(**batch)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
        print(f"epoch {epoch}: loss {loss.item():.4f} ({model.config.problem_type})")


g = torch.Generator().manual_seed(0)
work = tempfile.mkdtemp()

# Stage 1 (the reporter's first fine-tune): sentence-pair binary classification (paraphrase or not).
cls_examples = []
for _ in range(96):
    a, b, k = pair(g)
    cls_examples.append((*tokenize(a, b), int(k <= 1)))
clf = RobertaForSequenceClassification(AutoConfig(hidden_size=32, num_labels=2, problem_type=None))
train(clf, cls_examples)
clf.save_pretrained(os.path.join(work, "finetuned-roberta"))

# Stage 2: run_glue_no_trainer.py --task_name stsb --model_name_or_path <finetuned-roberta>
task_name = "stsb"
is_regression = task_name == "stsb"
num_labels = 1 if is_regression else 2
model_path = os.path.join(work, "finetuned-roberta")
config = AutoConfig.from_pretrained(model_path, num_labels=num_labels, finetuning_task=task_name)  # root-cause
model = RobertaForSequenceClassification.from_pretrained(model_path, config=config, ignore_mismatched_sizes=True)
stsb = []
for _ in range(96):
    a, b, k = pair(g)
    stsb.append((*tokenize(a, b), 5.0 * (1 - k / 6)))
train(model, stsb)

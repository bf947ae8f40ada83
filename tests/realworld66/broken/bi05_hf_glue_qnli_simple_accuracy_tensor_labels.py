"""A transformers 3.3-style GLUE run on QNLI (re-typed: glue_compute_metrics/simple_accuracy, a Trainer prediction_loop with the distributed gather branch, build_compute_metrics_fn of run_glue.py, a small BERT-like pair classifier): in the distributed branch the gathered label ids stay a torch tensor while the predictions are turned into NumPy, so simple_accuracy's NumPy idiom (preds == labels).mean() compares an ndarray with a tensor, gets a torch bool tensor back, and its .mean() fails
source: https://github.com/huggingface/transformers/issues/7810
reported-error: "RuntimeError: Can only calculate the mean of floating types. Got Bool instead." in transformers/data/metrics/__init__.py simple_accuracy `return (preds == labels).mean()`, called from glue_compute_metrics for QNLI (distributed set-up, official example script)
outcome: RuntimeError: mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Bool at line 22
root-cause: line 99
expect: DG005
"""
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.metrics import f1_score, matthews_corrcoef
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(42)
np.random.seed(42)


def simple_accuracy(preds, labels):
    return (preds == labels).mean()  # root-cause-alt  # fails-here


def acc_and_f1(preds, labels):
    acc = simple_accuracy(preds, labels)
    f1 = f1_score(y_true=labels, y_pred=preds)
    return {"acc": acc, "f1": f1, "acc_and_f1": (acc + f1) / 2}


def glue_compute_metrics(task_name, preds, labels):
    assert len(preds) == len(labels), f"Predictions and labels have mismatched lengths {len(preds)} and {len(labels)}"
    if task_name == "cola":
        return {"mcc": matthews_corrcoef(labels, preds)}
    elif task_name in ("mrpc", "qqp"):
        return acc_and_f1(preds, labels)
    elif task_name in ("sst-2", "mnli", "qnli", "rte", "wnli"):
        return {"acc": simple_accuracy(preds, labels)}
    raise KeyError(task_name)


@dataclass
class EvalPrediction:
    predictions: np.ndarray
    label_ids: np.ndarray


def distributed_concat(tensor, num_total_examples, world_tensors=None):
    """all_gather + cat + truncate to the dataset size (one process here: the gather returns our own shard)."""
    output_tensors = world_tensors if world_tensors is not None else [tensor.clone()]
    concat = torch.cat(output_tensors, dim=0)
    return concat[:num_total_examples]


class PairClassifier(nn.Module):
    """Small stand-in for BertForSequenceClassification on [CLS] question [SEP] sentence [SEP]."""

    def __init__(self, vocab_size=500, hidden=64, num_labels=2):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, hidden)
        self.token_type = nn.Embedding(2, hidden)
        self.encoder = nn.TransformerEncoderLayer(hidden, 4, 128, batch_first=True)
        self.classifier = nn.Linear(hidden, num_labels)

    def forward(self, input_ids, token_type_ids, labels=None):
        h = self.encoder(self.embeddings(input_ids) + self.token_type(token_type_ids))
        logits = self.classifier(h[:, 0])
        loss = F.cross_entropy(logits, labels) if labels is not None else None
        return loss, logits


class Trainer:
    def __init__(self, model, train_dataset, eval_dataset, compute_metrics, local_rank=-1):
        self.model, self.compute_metrics, self.local_rank = model, compute_metrics, local_rank
        self.train_dataset, self.eval_dataset = train_dataset, eval_dataset
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)

    def train(self, epochs=2):
        self.model.train()
        for _ in range(epochs):
            for input_ids, token_type_ids, labels in DataLoader(self.train_dataset, batch_size=16, shuffle=True):
                loss, _ = self.model(input_ids, token_type_ids, labels)
                loss.backward()
                self.optimizer.step()
                self.optimizer.zero_grad()

    def prediction_loop(self, dataloader):
        self.model.eval()
        preds, label_ids, losses = None, None, []
        with torch.no_grad():
            for input_ids, token_type_ids, labels in dataloader:
                loss, logits = self.model(input_ids, token_type_ids, labels)
                losses.append(loss.item())
                preds = logits if preds is None else torch.cat((preds, logits), dim=0)
                label_ids = labels if label_ids is None else torch.cat((label_ids, labels), dim=0)
        if self.local_rank != -1:
            # In distributed mode, concatenate all results from all nodes:
            preds = distributed_concat(preds, num_total_examples=len(dataloader.dataset))
            label_ids = distributed_concat(label_ids, num_total_examples=len(dataloader.dataset))  # root-cause
        else:
            label_ids = label_ids.cpu().numpy()
        # Finally, turn the aggregated tensors into numpy arrays.
        preds = preds.cpu().numpy()
        metrics = self.compute_metrics(EvalPrediction(predictions=preds, label_ids=label_ids))
        metrics["eval_loss"] = float(np.mean(losses))
        return metrics

    def evaluate(self):
        return self.prediction_loop(DataLoader(self.eval_dataset, batch_size=32))


def build_compute_metrics_fn(task_name):
    def compute_metrics_fn(p: EvalPrediction):
        preds = np.argmax(p.predictions, axis=1)
        return glue_compute_metrics(task_name, preds, p.label_ids)
    return compute_metrics_fn


def make_qnli(n, seq_len=24):
    """Synthetic QNLI: entailment (0) when the sentence repeats a question token, else not_entailment (1)."""
    q = torch.randint(5, 250, (n, seq_len // 2 - 1))
    s = torch.randint(250, 500, (n, seq_len // 2 - 1))
    labels = torch.randint(0, 2, (n,))
    s[labels == 0, 0] = q[labels == 0, 0]
    cls, sep = torch.full((n, 1), 1), torch.full((n, 1), 2)
    input_ids = torch.cat([cls, q, sep, s], dim=1)
    token_type_ids = torch.cat([torch.zeros(n, seq_len // 2, dtype=torch.long), torch.ones(n, seq_len // 2, dtype=torch.long)], 1)
    return TensorDataset(input_ids, token_type_ids, labels)


trainer = Trainer(PairClassifier(), make_qnli(256), make_qnli(96), build_compute_metrics_fn("qnli"), local_rank=0)
trainer.train()
print("***** Eval results qnli *****", trainer.evaluate())

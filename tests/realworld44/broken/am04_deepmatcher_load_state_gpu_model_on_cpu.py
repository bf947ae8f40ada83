"""Entity matching with DeepMatcher (anhaidgroup/deepmatcher: deepmatcher/models/core.py's MatchingModel.save_state / load_state, deepmatcher/runner.py's Runner.train which saves the best model state, the README's train-then-predict workflow on pandas tables of product pairs), the state before pull request #54: a model trained on a GPU is saved with save_state (model state dict, train metadata, optimizer state), and load_state's torch.load(path, pickle_module=dill) on a CPU-only machine has no map_location, so the CUDA storages cannot be restored there
source: https://github.com/anhaidgroup/deepmatcher/pull/54
reported-error: "Add map_location to load_state function": useful when you want to run on a CPU a model that has been trained on a CUDA device (torch.load: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False)
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 115
root-cause: line 115
expect: DG010
"""
import contextlib
import copy
import os
import pickle as dill  # deepmatcher pickles with dill (not installed here); any pickle_module keeps weights_only off
import tempfile

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- deepmatcher/data/dataset.py (reduced: a word vocabulary over the left_/right_ attribute columns)
class MatchingDataset:
    def __init__(self, df, vocab=None, max_len=8):
        self.df = df.reset_index(drop=True)
        self.attrs = [c[len("left_"):] for c in df.columns if c.startswith("left_")]
        self.max_len = max_len
        if vocab is None:
            vocab = {"<pad>": 0, "<unk>": 1}
            for col in df.columns:
                if col.startswith(("left_", "right_")):
                    for text in df[col].astype(str):
                        for w in text.lower().split():
                            vocab.setdefault(w, len(vocab))
        self.vocab = vocab
        self.orig_metadata = {"vocab_size": len(vocab), "attrs": self.attrs}
        self.metadata = None

    @staticmethod
    def finalize_metadata(info):
        info.metadata = dict(info.orig_metadata)

    def encode(self, texts):
        out = np.zeros((len(texts), self.max_len), dtype=np.int64)
        for i, text in enumerate(texts):
            ids = [self.vocab.get(w, 1) for w in str(text).lower().split()][: self.max_len]
            out[i, : len(ids)] = ids
        return torch.from_numpy(out)

    def batches(self, batch_size, device):
        for start in range(0, len(self.df), batch_size):
            chunk = self.df.iloc[start:start + batch_size]
            batch = {}
            for attr in self.attrs:
                batch["left_" + attr] = self.encode(chunk["left_" + attr]).to(device)
                batch["right_" + attr] = self.encode(chunk["right_" + attr]).to(device)
            yield batch, torch.as_tensor(chunk["label"].to_numpy(), dtype=torch.long).to(device)


# ---- deepmatcher/models/core.py (MatchingModel, reduced: an RNN attribute summarizer per attribute,
# absolute-difference comparison, a two-layer classifier; lazy initialisation from the train metadata)
class MatchingModel(nn.Module):
    def __init__(self, attr_summarizer='hybrid', hidden_size=32):
        super().__init__()
        self.attr_summarizer = attr_summarizer
        self.hidden_size = hidden_size
        self._train_buffers = set()
        self._initialized = False

    def initialize(self, train_dataset, init_batch=None):
        if self._initialized:
            return
        self.meta = copy.deepcopy(train_dataset)
        self.attrs = train_dataset.orig_metadata["attrs"]
        vocab_size = train_dataset.orig_metadata["vocab_size"]
        self.embed = nn.Embedding(vocab_size, 16, padding_idx=0)
        self.attr_rnns = nn.ModuleDict({a: nn.GRU(16, self.hidden_size, batch_first=True, bidirectional=True)
                                        for a in self.attrs})
        self.classifier = nn.Sequential(nn.Linear(2 * self.hidden_size * len(self.attrs), self.hidden_size),
                                        nn.ReLU(), nn.Linear(self.hidden_size, 2))
        self._register_train_buffer('state_meta', train_dataset)
        self.state_meta.init_batch = init_batch
        self._initialized = True

    def summarize(self, attr, tokens):
        out, _ = self.attr_rnns[attr](self.embed(tokens))
        return out.max(dim=1)[0]

    def forward(self, input):
        attr_comparisons = []
        for name in self.attrs:
            left_summary = self.summarize(name, input["left_" + name])
            right_summary = self.summarize(name, input["right_" + name])
            attr_comparisons.append(torch.abs(left_summary - right_summary))
        return self.classifier(torch.cat(attr_comparisons, dim=1))

    def _register_train_buffer(self, name, value):
        self._train_buffers.add(name)
        setattr(self, name, value)

    def run_train(self, train, validation, epochs=3, batch_size=16, best_save_path=None, device=None):
        return Runner.train(self, train, validation, epochs=epochs, batch_size=batch_size,
                            best_save_path=best_save_path, device=device)

    def run_prediction(self, dataset, device=None):
        return Runner.predict(self, dataset, device=device)

    def save_state(self, path, include_meta=True):
        state = {'model': self.state_dict()}
        for k in self._train_buffers:
            if include_meta or k != 'state_meta':
                state[k] = getattr(self, k)
        torch.save(state, path, pickle_module=dill)

    def load_state(self, path):
        state = torch.load(path, pickle_module=dill)  # root-cause  # fails-here
        for k, v in state.items():
            if k != 'model':
                self._train_buffers.add(k)
                setattr(self, k, v)

        if hasattr(self, 'state_meta'):
            train_info = copy.copy(self.state_meta)
            train_info.metadata = train_info.orig_metadata
            MatchingDataset.finalize_metadata(train_info)
            self.initialize(train_info, self.state_meta.init_batch)

        self.load_state_dict(state['model'])


# ---- deepmatcher/runner.py (reduced)
class Runner:
    @staticmethod
    def train(model, train_dataset, validation_dataset, epochs=3, batch_size=16, best_save_path=None, device=None):
        model.initialize(train_dataset)
        model.to(device)
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
        best_f1 = -1
        for epoch in range(epochs):
            model.train()
            for batch, labels in train_dataset.batches(batch_size, device):
                loss = F.cross_entropy(model(batch), labels)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            f1 = Runner.eval(model, validation_dataset, device)
            print(f"===>  EVAL Epoch {epoch + 1}  F1 {f1:.2f}")
            if f1 > best_f1:
                best_f1 = f1
                model._register_train_buffer('optimizer_state', optimizer.state_dict())
                model._register_train_buffer('epoch', epoch)
                model._register_train_buffer('best_score', best_f1)
                if best_save_path:
                    print('Saving best model...')
                    model.save_state(best_save_path)
        return best_f1

    @staticmethod
    def eval(model, dataset, device):
        model.eval()
        tp = fp = fn = 0
        with torch.no_grad():
            for batch, labels in dataset.batches(64, device):
                pred = model(batch).argmax(dim=1)
                tp += int(((pred == 1) & (labels == 1)).sum())
                fp += int(((pred == 1) & (labels == 0)).sum())
                fn += int(((pred == 0) & (labels == 1)).sum())
        return 100.0 * 2 * tp / max(2 * tp + fp + fn, 1)

    @staticmethod
    def predict(model, dataset, device=None):
        model.eval()
        scores = []
        with torch.no_grad():
            for batch, _ in dataset.batches(64, device):
                scores.append(F.softmax(model(batch), dim=1)[:, 1].cpu())
        return pd.DataFrame({"match_score": torch.cat(scores).numpy()})


# ---- the user's notebook: training on a GPU machine, prediction on a CPU-only server
@contextlib.contextmanager
def storages_tagged_cuda():
    # what torch.save records for tensors that live on the GPU
    orig = torch.serialization.location_tag
    torch.serialization.location_tag = lambda storage: "cuda:0"
    try:
        yield
    finally:
        torch.serialization.location_tag = orig


def make_pairs(n, rng):
    brands = ["sony", "canon", "nikon", "apple", "dell", "asus", "lenovo", "acer"]
    kinds = ["camera", "laptop", "lens", "monitor", "tablet", "phone"]
    rows = []
    for i in range(n):
        b, k, m = rng.choice(brands), rng.choice(kinds), int(rng.integers(100, 999))
        match = int(rng.random() < 0.5)
        rb, rk, rm = (b, k, m) if match else (rng.choice(brands), rng.choice(kinds), int(rng.integers(100, 999)))
        rows.append({"id": i, "label": match, "left_title": f"{b} {k} {m}", "right_title": f"{rb} {rk} model {rm}",
                     "left_price": f"{m % 7} usd", "right_price": f"{rm % 7} usd"})
    return pd.DataFrame(rows)


if __name__ == "__main__":
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    workdir = tempfile.mkdtemp()
    df = make_pairs(160, rng)
    train, validation, unlabeled = df.iloc[:96], df.iloc[96:128], df.iloc[128:]
    train_ds = MatchingDataset(train)
    validation_ds = MatchingDataset(validation, vocab=train_ds.vocab)

    model = MatchingModel(attr_summarizer='hybrid')
    with storages_tagged_cuda():
        model.run_train(train_ds, validation_ds, epochs=3, batch_size=16,
                        best_save_path=os.path.join(workdir, 'hybrid_model.pth'), device='cpu')

    # later, on the CPU-only prediction server
    model = MatchingModel(attr_summarizer='hybrid')
    model.load_state(os.path.join(workdir, 'hybrid_model.pth'))
    candidates = MatchingDataset(unlabeled, vocab=model.state_meta.vocab)
    predictions = model.run_prediction(candidates)
    print(predictions.head())

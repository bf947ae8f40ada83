"""The MatchZoo-py DSSM ranking tutorial (re-typed at matchzoo-py 1.1.1: a pandas relation table of (id_left, id_right, label) re-organised pair-wise with num_neg sampled negatives per positive, the Ngram(mode='aggregate') callback that turns each text into a tri-letter count vector built from np.zeros one-hots, the DataLoader that makes every batch field a tensor with torch.tensor(value), the DSSM siamese MLPs and RankCrossEntropyLoss): the word-hashing vectors are float64, so the first Linear of mlp_left refuses them in the first training batch
source: https://github.com/NTMC-Community/MatchZoo-py/issues/146
reported-error: "RuntimeError: Expected object of scalar type Float but got scalar type Double for argument #2 'mat1' in call to _th_addmm" (trainer.run() -> _run_epoch -> outputs = self._model(inputs))
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 337
root-cause: line 311
expect: DG004
"""
import collections
import math
import typing

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils import data

torch.manual_seed(0)
np.random.seed(0)

WORDS = ("what how who when where is are the a of river city born war paper was did does play light wave "
         "energy music capital country author novel king queen battle year team cell plant water sun moon").split()


# ---- a WikiQA-like ranking data pack (mz.datasets.wiki_qa.load_data(task=ranking_task) stand-in) -----------------
class DataPack:
    def __init__(self, relation: pd.DataFrame, left: pd.DataFrame, right: pd.DataFrame):
        self.relation = relation
        self.left = left
        self.right = right

    @property
    def has_label(self):
        return "label" in self.relation.columns

    def copy(self):
        return DataPack(self.relation.copy(), self.left.copy(), self.right.copy())

    def __len__(self):
        return self.relation.shape[0]

    def frame(self):
        left = self.left.loc[self.relation["id_left"]].reset_index()
        right = self.right.loc[self.relation["id_right"]].reset_index()
        joined = pd.concat([left, right], axis=1)
        for column in self.relation.columns:
            if column not in ["id_left", "id_right"]:
                joined[column] = self.relation[column].values
        return joined

    def unpack(self):
        frame = self.frame()
        columns = list(frame.columns)
        if self.has_label:
            columns.remove("label")
            y = np.vstack(np.asarray(frame["label"]))
        else:
            y = None
        x = frame[columns].to_dict(orient="list")
        for key, val in x.items():
            x[key] = np.array(val, dtype=object) if key.startswith("text") else np.array(val)
        return x, y

    def __getitem__(self, index):
        relation = self.relation.loc[index].reset_index(drop=True)
        left = self.left.loc[relation["id_left"].unique()]
        right = self.right.loc[relation["id_right"].unique()]
        return DataPack(relation, left.copy(), right.copy())


def load_data(n_questions, n_answers, rng):
    left, right, rel = {}, {}, []
    for q in range(n_questions):
        qid = f"Q{q}"
        left[qid] = " ".join(rng.choice(WORDS, rng.integers(4, 9)))
        for a in range(n_answers):
            did = f"D{q}-{a}"
            right[did] = " ".join(rng.choice(WORDS, rng.integers(8, 20)))
            rel.append((qid, did, 1 if a == 0 else 0))
    relation = pd.DataFrame(rel, columns=["id_left", "id_right", "label"])
    relation["label"] = relation["label"].astype("float32")  # ranking task: float labels
    left = pd.DataFrame({"text_left": pd.Series(left)}).rename_axis("id_left")
    right = pd.DataFrame({"text_right": pd.Series(right)}).rename_axis("id_right")
    return DataPack(relation, left, right)


# ---- preprocessors.BasicPreprocessor(ngram_size=3), reduced to what DSSM uses -------------------------------------
class NgramLetter:
    def __init__(self, ngram=3, reduce_dim=True):
        self._ngram = ngram
        self._reduce_dim = reduce_dim

    def transform(self, input_):
        n_letters = []
        for token in input_:
            token = "#" + token + "#"
            token_ngram = []
            while len(token) >= self._ngram:
                token_ngram.append(token[:self._ngram])
                token = token[1:]
            n_letters.extend(token_ngram) if self._reduce_dim else n_letters.append(token_ngram)
        return n_letters


class Vocabulary:
    def __init__(self):
        self.state = {}

    def fit(self, tokens):
        terms = sorted(set(tokens))
        self.state["term_index"] = {"<PAD>": 0, "<OOV>": 1, **{t: i + 2 for i, t in enumerate(terms)}}
        self.state["index_term"] = {i: t for t, i in self.state["term_index"].items()}
        return self

    def transform(self, input_):
        return [self.state["term_index"].get(t, 1) for t in input_]


class BasicPreprocessor:
    def __init__(self, ngram_size=3):
        self._ngram_size = ngram_size
        self.context = {}

    def fit_transform(self, pack):
        tokens = [w for text in pd.concat([pack.left.text_left, pack.right.text_right]) for w in text.lower().split()]
        vocab_unit = Vocabulary().fit(tokens)
        ngram_unit = NgramLetter(self._ngram_size, reduce_dim=True)
        ngram_vocab = Vocabulary().fit(ngram_unit.transform(sorted(set(tokens))))
        self.context.update(vocab_unit=vocab_unit, vocab_size=len(vocab_unit.state["term_index"]),
                            ngram_process_unit=ngram_unit, ngram_vocab_unit=ngram_vocab,
                            ngram_vocab_size=len(ngram_vocab.state["term_index"]))
        return self.transform(pack)

    def transform(self, pack):
        pack = pack.copy()
        vocab = self.context["vocab_unit"]
        pack.left["text_left"] = pack.left.text_left.apply(lambda s: vocab.transform(s.lower().split()))
        pack.right["text_right"] = pack.right.text_right.apply(lambda s: vocab.transform(s.lower().split()))
        pack.left["length_left"] = pack.left.text_left.apply(len)
        pack.right["length_right"] = pack.right.text_right.apply(len)
        return pack


# ---- matchzoo/dataloader/callbacks/ngram.py ----------------------------------------------------------------------
class Ngram:
    def __init__(self, preprocessor, mode="index"):
        self._mode = mode
        self._word_to_ngram = _build_word_ngram_map(
            preprocessor.context["ngram_process_unit"], preprocessor.context["ngram_vocab_unit"],
            preprocessor.context["vocab_unit"].state["index_term"], mode)

    def on_batch_data_pack(self, data_pack):
        pass

    def on_batch_unpacked(self, x, y):
        batch_size = len(x["text_left"])
        x["ngram_left"] = [[] for i in range(batch_size)]
        x["ngram_right"] = [[] for i in range(batch_size)]
        for idx, row in enumerate(x["text_left"]):
            for term in row:
                x["ngram_left"][idx].append(self._word_to_ngram[term])
        for idx, row in enumerate(x["text_right"]):
            for term in row:
                x["ngram_right"][idx].append(self._word_to_ngram[term])
        if self._mode == "aggregate":
            x["ngram_left"] = [list(np.sum(row, axis=0)) for row in x["ngram_left"]]
            x["ngram_right"] = [list(np.sum(row, axis=0)) for row in x["ngram_right"]]
            x["text_left"] = x["ngram_left"]
            x["text_right"] = x["ngram_right"]


def _build_word_ngram_map(ngram_process_unit, ngram_vocab_unit, index_term, mode="index"):
    word_to_ngram = {}
    ngram_size = len(ngram_vocab_unit.state["index_term"])
    for idx, word in index_term.items():
        if idx == 0:
            continue
        elif idx == 1:  # OOV
            word_ngram = [1]
        else:
            ngrams = ngram_process_unit.transform([word])
            word_ngram = ngram_vocab_unit.transform(ngrams)
        num_ngrams = len(word_ngram)
        if mode == "index":
            word_to_ngram[idx] = word_ngram
        elif mode == "sum" or mode == "aggregate":
            onehot = np.zeros((num_ngrams, ngram_size))  # root-cause-alt
            onehot[np.arange(num_ngrams), word_ngram] = 1
            sum_vector = np.sum(onehot, axis=0)
            word_to_ngram[idx] = sum_vector
    return word_to_ngram


# ---- matchzoo/dataloader/dataset.py (pair mode) ------------------------------------------------------------------
class Dataset(data.IterableDataset):
    def __init__(self, data_pack, mode="point", num_dup=1, num_neg=1, batch_size=32, resample=False,
                 shuffle=True, callbacks=None):
        data_pack = data_pack.copy()
        self._mode = mode
        self._num_dup = num_dup
        self._num_neg = num_neg
        self._batch_size = batch_size
        self._resample = resample if mode != "point" else False
        self._shuffle = shuffle
        self._orig_relation = data_pack.relation
        self._callbacks = callbacks or []
        if mode == "pair":
            data_pack.relation = self._reorganize_pair_wise(self._orig_relation, num_dup=num_dup, num_neg=num_neg)
        self._data_pack = data_pack
        self._batch_indices = None
        self.reset_index()

    def __getitem__(self, item):
        if isinstance(item, slice):
            indices = sum(self._batch_indices[item], [])
        else:
            indices = self._batch_indices[item]
        batch_data_pack = self._data_pack[indices]
        for callback in self._callbacks:
            callback.on_batch_data_pack(batch_data_pack)
        x, y = batch_data_pack.unpack()
        for callback in self._callbacks:
            callback.on_batch_unpacked(x, y)
        return x, y

    def __len__(self):
        return len(self._batch_indices)

    def __iter__(self):
        if self._resample or self._shuffle:
            self.on_epoch_end()
        for i in range(len(self)):
            yield self[i]

    def on_epoch_end(self):
        if self._resample:
            self._data_pack.relation = self._reorganize_pair_wise(self._orig_relation, self._num_dup, self._num_neg)
        self.reset_index()

    def reset_index(self):
        index_pool = []
        if self._mode == "point":
            num_instances = len(self._data_pack)
            for i in range(num_instances):
                index_pool.append(i)
        else:
            step_size = self._num_neg + 1
            num_instances = int(len(self._data_pack) / step_size)
            for i in range(num_instances):
                index_pool.append(list(range(i * step_size, (i + 1) * step_size)))
        if self._shuffle:
            np.random.shuffle(index_pool)
        self._batch_indices = []
        for i in range(math.ceil(num_instances / self._batch_size)):
            candidates = index_pool[self._batch_size * i:self._batch_size * (i + 1)]
            if self._mode == "pair":
                candidates = sum(candidates, [])
            self._batch_indices.append(candidates)

    @classmethod
    def _reorganize_pair_wise(cls, relation: pd.DataFrame, num_dup: int = 1, num_neg: int = 1):
        pairs = []
        groups = relation.sort_values("label", ascending=False).groupby("id_left")
        for _, group in groups:
            labels = group.label.unique()
            for label in labels[:-1]:
                pos_samples = group[group.label == label]
                pos_samples = pd.concat([pos_samples] * num_dup)
                neg_samples = group[group.label < label]
                for _, pos_sample in pos_samples.iterrows():
                    pos_sample = pd.DataFrame([pos_sample])
                    neg_sample = neg_samples.sample(num_neg, replace=True)
                    pairs.extend((pos_sample, neg_sample))
        return pd.concat(pairs, ignore_index=True)


# ---- matchzoo/dataloader/dataloader.py ---------------------------------------------------------------------------
class DataLoader:
    def __init__(self, dataset, device=None, stage="train", callback=None):
        if not isinstance(device, (torch.device, int)):
            device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self._dataset = dataset
        self._device = device
        self._stage = stage
        self._callback = callback
        self._dataloader = data.DataLoader(self._dataset, batch_size=None, shuffle=False, collate_fn=lambda x: x)

    def __len__(self):
        return len(self._dataset)

    @property
    def id_left(self):
        x, _ = self._dataset[:]
        return x["id_left"]

    @property
    def label(self):
        _, y = self._dataset[:]
        return y.squeeze() if y is not None else None

    def __iter__(self):
        for batch_data in self._dataloader:
            x, y = batch_data
            if self._callback is not None:
                self._callback.on_batch_unpacked(x, y)
            batch_x = {}
            for key, value in x.items():
                if key == "id_left" or key == "id_right":
                    continue
                batch_x[key] = torch.tensor(value, device=self._device)  # root-cause
            if self._stage == "test":
                yield batch_x, None
            else:
                if y.dtype == "int":  # task='classification'
                    batch_y = torch.tensor(y.squeeze(axis=-1), dtype=torch.long, device=self._device)
                else:  # task='ranking'
                    batch_y = torch.tensor(y, dtype=torch.float, device=self._device)
                yield batch_x, batch_y


# ---- matchzoo/models/dssm.py, losses/rank_cross_entropy_loss.py --------------------------------------------------
def _make_multi_layer_perceptron_layer(in_features, num_layers=3, num_units=300, fan_out=128):
    sizes = [in_features] + [num_units] * num_layers + [fan_out]
    return nn.Sequential(*[nn.Sequential(nn.Linear(a, b), nn.ReLU()) for a, b in zip(sizes[:-1], sizes[1:])])


class DSSM(nn.Module):
    def __init__(self, vocab_size, mlp_num_layers=3, mlp_num_units=300, mlp_num_fan_out=128):
        super().__init__()
        self.mlp_left = _make_multi_layer_perceptron_layer(vocab_size, mlp_num_layers, mlp_num_units, mlp_num_fan_out)
        self.mlp_right = _make_multi_layer_perceptron_layer(vocab_size, mlp_num_layers, mlp_num_units, mlp_num_fan_out)
        self.out = nn.Linear(1, 1)

    def forward(self, inputs):
        input_left, input_right = inputs["ngram_left"], inputs["ngram_right"]
        input_left = self.mlp_left(input_left)  # fails-here
        input_right = self.mlp_right(input_right)
        x = F.cosine_similarity(input_left, input_right)
        return self.out(x.unsqueeze(dim=1))


class RankCrossEntropyLoss(nn.Module):
    def __init__(self, num_neg: int = 1):
        super().__init__()
        self.num_neg = num_neg

    def forward(self, y_pred, y_true):
        logits = y_pred[::(self.num_neg + 1), :]
        labels = y_true[::(self.num_neg + 1), :]
        for neg_idx in range(self.num_neg):
            neg_logits = y_pred[(neg_idx + 1)::(self.num_neg + 1), :]
            neg_labels = y_true[(neg_idx + 1)::(self.num_neg + 1), :]
            logits = torch.cat((logits, neg_logits), dim=-1)
            labels = torch.cat((labels, neg_labels), dim=-1)
        return -torch.mean(torch.sum(labels * torch.log(F.softmax(logits, dim=-1) + torch.finfo(float).eps), dim=-1))


# ---- matchzoo/trainers/trainer.py (run / _run_epoch / evaluate with MAP) -----------------------------------------
class Trainer:
    def __init__(self, model, optimizer, trainloader, validloader, criterions, epochs=2):
        self._model = model
        self._optimizer = optimizer
        self._trainloader = trainloader
        self._validloader = validloader
        self._criterions = criterions
        self._epochs = epochs

    def run(self):
        self._model.train()
        for epoch in range(1, self._epochs + 1):
            loss = self._run_epoch()
            print(f"Epoch {epoch}/{self._epochs} loss={loss:.3f} MAP={self.evaluate(self._validloader):.4f}")

    def _run_epoch(self):
        total = []
        for step, (inputs, target) in enumerate(self._trainloader):
            outputs = self._model(inputs)
            loss = torch.sum(*[c(outputs, target) for c in self._criterions])
            self._optimizer.zero_grad()
            loss.backward()
            self._optimizer.step()
            total.append(loss.item())
        return float(np.mean(total))

    def evaluate(self, dataloader):
        self._model.eval()
        with torch.no_grad():
            y_pred = torch.cat([self._model(inputs) for inputs, _ in dataloader]).cpu().numpy().squeeze(-1)
        self._model.train()
        df = pd.DataFrame({"id": dataloader.id_left, "true": dataloader.label, "pred": y_pred})
        aps = []
        for _, g in df.groupby("id"):
            ranked = g.sort_values("pred", ascending=False)["true"].to_numpy()
            hits = np.cumsum(ranked > 0)
            aps.append(np.sum((ranked > 0) * hits / np.arange(1, len(ranked) + 1)) / max(1, hits[-1]))
        return float(np.mean(aps))


rng = np.random.default_rng(0)
train_pack_raw = load_data(60, 5, rng)
test_pack_raw = load_data(20, 5, rng)
preprocessor = BasicPreprocessor(ngram_size=3)
train_pack_processed = preprocessor.fit_transform(train_pack_raw)
test_pack_processed = preprocessor.transform(test_pack_raw)

triletter_callback = Ngram(preprocessor, mode="aggregate")
trainset = Dataset(train_pack_processed, mode="pair", num_dup=1, num_neg=4, batch_size=8, resample=True,
                   callbacks=[triletter_callback])
testset = Dataset(test_pack_processed, batch_size=20, shuffle=False, callbacks=[triletter_callback])
trainloader = DataLoader(trainset, stage="train")
testloader = DataLoader(testset, stage="dev")

model = DSSM(vocab_size=preprocessor.context["ngram_vocab_size"], mlp_num_layers=3, mlp_num_units=64,
             mlp_num_fan_out=32)
model.to(trainloader._device)
optimizer = torch.optim.Adam(model.parameters())
trainer = Trainer(model, optimizer, trainloader, testloader, criterions=[RankCrossEntropyLoss(num_neg=4)], epochs=2)
trainer.run()

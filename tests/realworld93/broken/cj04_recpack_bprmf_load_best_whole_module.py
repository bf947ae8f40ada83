"""RecPack's BPRMF fit on an implicit-feedback table (re-typed from recpack 0.3.6: a pandas interaction log turned into a binary user x item csr_matrix, BootstrapSampler drawing one uniform negative per sampled positive, MFModule user/item embeddings scored by dot product, bpr_loss with Adagrad, the "bpr" StoppingCriterion on validation data, and TorchMLAlgorithm's _save_best/_load_best that pickle the whole module into a NamedTemporaryFile): at the end of fit, _load_best reads the best model back with a bare torch.load, which the weights-only default refuses because the file holds an MFModule object
source: https://github.com/LienM/recpack/pull/12
reported-error: "RecPack saves whole models (torch.save(self.model_)), so _load_best - called at the end of every TorchMLAlgorithm.fit() - and the public load() method raised UnpicklingError for every torch-based algorithm (RecVAE, MultVAE, BPRMF, Prod2Vec, ...). Pass weights_only=False explicitly at both call sites."
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL __main__.MFModule was not an allowed global by default. ... at line 138
root-cause: line 138
expect: DG011
"""
import logging
import tempfile
import time
from typing import List

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.optim as optim
from scipy.sparse import csr_matrix, lil_matrix

logger = logging.getLogger("recpack")


# ---- recpack.matrix / algorithms.util (a pandas interaction log to a binary csr_matrix) --------------------------
def to_csr_matrix(X, binary=False):
    if isinstance(X, tuple):
        return tuple(to_csr_matrix(x, binary) for x in X)
    X = X.copy()
    if binary:
        X.data = np.ones_like(X.data)
    return X


def get_users(X):
    return list(sorted(set(X.nonzero()[0])))


def get_batches(iterable, batch_size=100):
    for start in range(0, len(iterable), batch_size):
        yield iterable[start:start + batch_size]


def interactions_to_csr(df, shape):
    return csr_matrix((np.ones(len(df)), (df["uid"].to_numpy(), df["iid"].to_numpy())), shape=shape)


# ---- recpack/algorithms/samplers.py (BootstrapSampler: positives with replacement, uniform negatives) --------------
class BootstrapSampler:
    def __init__(self, num_negatives=1, batch_size=100, replace=True):
        self.num_negatives = num_negatives
        self.batch_size = batch_size
        self.replace = replace

    def _sample_negatives(self, X, size):
        return np.random.choice(np.arange(X.shape[1]), size=size)

    def sample(self, X: csr_matrix, sample_size=None):
        positives = np.array(X.nonzero()).T
        num_positives = positives.shape[0]
        if sample_size is None:
            sample_size = num_positives
        samples = np.random.choice(num_positives, size=(sample_size,), replace=self.replace)
        for start in range(0, sample_size, self.batch_size):
            batch = positives[samples[start:start + self.batch_size]]
            users, positives_batch = batch[:, 0], batch[:, 1]
            true_batch_size = min(self.batch_size, sample_size - start)
            negatives_batch = self._sample_negatives(X, size=(true_batch_size, self.num_negatives))
            while True:
                mask = np.apply_along_axis(lambda col: col == positives_batch, 0, negatives_batch)
                num_incorrect = np.sum(mask)
                if num_incorrect > 0:
                    negatives_batch[mask] = self._sample_negatives(X, size=(num_incorrect,))
                else:
                    break
            yield torch.LongTensor(users), torch.LongTensor(positives_batch), torch.LongTensor(negatives_batch)


# ---- recpack/algorithms/loss_functions.py, stopping_criterion.py ---------------------------------------------------
def bpr_loss(positive_sim, negative_sim):
    distance = positive_sim - negative_sim
    elementwise_bpr_loss = torch.log(torch.sigmoid(distance))
    return -elementwise_bpr_loss.mean()


def bpr_loss_wrapper(X_true, X_pred, batch_size=1000, sample_size=None):
    if sample_size is None:
        sample_size = X_true.nnz
    losses = []
    for users, target_items, negative_items in BootstrapSampler(1, batch_size).sample(X_true, sample_size=sample_size):
        # Needed to do copy, to use as index in the prediction matrix
        users = users.numpy().copy()
        target_items = target_items.numpy().copy()
        negative_items = negative_items.squeeze(-1).numpy().copy()
        positive_sim = torch.tensor(X_pred[users, target_items])
        negative_sim = torch.tensor(X_pred[users, negative_items])
        losses.append(bpr_loss(positive_sim, negative_sim).item())
    return float(np.mean(losses))


class StoppingCriterion:
    def __init__(self, loss_function, minimize=True):
        self.loss_function = loss_function
        self.minimize = minimize
        self.best_value = np.inf if minimize else -np.inf

    def update(self, X_true, X_pred):
        loss = self.loss_function(X_true, X_pred)
        better = loss < self.best_value if self.minimize else loss > self.best_value
        if better:
            self.best_value = loss
        return better


# ---- recpack/algorithms/base.py (TorchMLAlgorithm) ----------------------------------------------------------------
class TorchMLAlgorithm:
    def __init__(self, batch_size, max_epochs, learning_rate, stopping_criterion, seed=None, keep_last=False):
        self.batch_size = batch_size
        self.max_epochs = max_epochs
        self.learning_rate = learning_rate
        self.stopping_criterion = StoppingCriterion(bpr_loss_wrapper) if stopping_criterion == "bpr" else None
        if seed is None:
            seed = np.random.get_state()[1][0]
        torch.manual_seed(seed)
        np.random.seed(seed)
        self.seed = seed
        cuda = torch.cuda.is_available()
        self.device = torch.device("cuda" if cuda else "cpu")
        self.keep_last = keep_last

    def _save_best(self):
        """Save the best model in a temp file"""
        self.best_model.close()
        self.best_model = tempfile.NamedTemporaryFile()
        torch.save(self.model_, self.best_model)  # root-cause-alt

    def _load_best(self):
        """Load the best model from temp file"""
        self.best_model.seek(0)
        self.model_ = torch.load(self.best_model)  # root-cause  # fails-here

    def _evaluate(self, val_in, val_out):
        val_in = to_csr_matrix(val_in, binary=True)
        val_out = to_csr_matrix(val_out)
        X_pred_cpu = self._predict(val_in)
        better = self.stopping_criterion.update(val_out, X_pred_cpu)
        if better and not self.keep_last:
            logger.info("Model improved. Storing better model.")
            self._save_best()
        return better

    def _predict(self, X):
        results = lil_matrix(X.shape)
        self.model_.eval()
        with torch.no_grad():
            for users in get_batches(get_users(X), batch_size=self.batch_size):
                results[users] = self._batch_predict(X, users=users)[users]
        return results.tocsr()

    def fit(self, X, validation_data):
        start = time.time()
        assert X.shape == validation_data[0].shape
        X, validation_data = to_csr_matrix((X, validation_data), binary=True)
        self.best_model = tempfile.NamedTemporaryFile()
        self._init_model(X)
        val_in, val_out = validation_data
        for epoch in range(self.max_epochs):
            self.model_.train()
            losses = self._train_epoch(X)
            self.model_.eval()
            with torch.no_grad():
                better = self._evaluate(val_in, val_out)
            print(f"epoch {epoch}: train BPR {np.mean(losses):.4f}, validation BPR "
                  f"{self.stopping_criterion.best_value:.4f}{' (stored)' if better else ''}")
        if not self.keep_last:
            self._load_best()
        self.best_model.close()
        print(f"Fitting {type(self).__name__} complete - Took {time.time() - start:.3}s")
        return self

    def predict(self, X):
        return self._predict(to_csr_matrix(X, binary=True))


# ---- recpack/algorithms/bprmf.py ---------------------------------------------------------------------------------
class BPRMF(TorchMLAlgorithm):
    def __init__(self, num_components=100, lambda_h=0.0, lambda_w=0.0, batch_size=1_000, max_epochs=20,
                 learning_rate=0.01, stopping_criterion="bpr", seed=None, sample_size=None, keep_last=False):
        super().__init__(batch_size, max_epochs, learning_rate, stopping_criterion, seed=seed, keep_last=keep_last)
        self.num_components = num_components
        self.lambda_h = lambda_h
        self.lambda_w = lambda_w
        self.sample_size = sample_size
        self.sampler = BootstrapSampler(num_negatives=1, batch_size=self.batch_size)

    def _init_model(self, X):
        num_users, num_items = X.shape
        self.model_ = MFModule(num_users, num_items, num_components=self.num_components).to(self.device)
        self.optimizer = optim.Adagrad(self.model_.parameters(), lr=self.learning_rate)

    def _batch_predict(self, X, users: List[int]):
        user_tensor = torch.LongTensor(users).to(self.device)
        item_tensor = torch.arange(X.shape[1]).to(self.device)
        result = lil_matrix(X.shape)
        result[users] = self.model_(user_tensor, item_tensor).detach().cpu().numpy()
        return result.tocsr()

    def _train_epoch(self, train_data):
        losses = []
        for users, target_items, mnar_items in self.sampler.sample(train_data, sample_size=self.sample_size):
            users = users.to(self.device)
            target_items = target_items.to(self.device)
            mnar_items = mnar_items.squeeze(-1).to(self.device)
            self.optimizer.zero_grad()
            target_sim = self.model_.forward(users, target_items).diag()
            mnar_sim = self.model_.forward(users, mnar_items).diag()
            loss = self._compute_loss(target_sim, mnar_sim)
            loss.backward()
            losses.append(loss.item())
            self.optimizer.step()
        return losses

    def _compute_loss(self, positive_sim, negative_sim):
        loss = bpr_loss(positive_sim, negative_sim)
        loss += (self.lambda_h * self.model_.item_embedding_.weight.norm()
                 + self.lambda_w * self.model_.user_embedding_.weight.norm())
        return loss


class MFModule(nn.Module):
    def __init__(self, num_users: int, num_items: int, num_components: int = 100):
        super().__init__()
        self.num_components = num_components
        self.num_users = num_users
        self.num_items = num_items
        self.user_embedding_ = nn.Embedding(num_users, num_components)
        self.item_embedding_ = nn.Embedding(num_items, num_components)
        self.std = min(1 / num_components ** 0.5, 0.05)
        nn.init.normal_(self.user_embedding_.weight, std=self.std)
        nn.init.normal_(self.item_embedding_.weight, std=self.std)

    def forward(self, user_tensor, item_tensor):
        w_u = self.user_embedding_(user_tensor)
        h_i = self.item_embedding_(item_tensor)
        return w_u.matmul(h_i.T)


# ---- the experiment: an implicit-feedback log, a per-user hold-out for validation --------------------------------
rng = np.random.default_rng(0)
n_users, n_items = 200, 120
rows = []
for u in range(n_users):
    group = u % 4
    liked = rng.choice(np.arange(group * 30, group * 30 + 30), 10, replace=False)
    rows += [(f"user_{u}", f"item_{i}", int(ts)) for i, ts in zip(liked, rng.integers(0, 10_000, 10))]
events = pd.DataFrame(rows, columns=["visitor", "item", "timestamp"]).sort_values(["visitor", "timestamp"])
events["uid"] = events["visitor"].astype("category").cat.codes.astype(np.int64)
events["iid"] = events["item"].str.slice(5).astype(np.int64)
last = events.groupby("uid").tail(2)
train_df = events.drop(last.index)
shape = (n_users, n_items)
X_train = interactions_to_csr(train_df, shape)
val_in, val_out = X_train, interactions_to_csr(last, shape)

algo = BPRMF(num_components=16, batch_size=256, max_epochs=3, learning_rate=0.1, seed=42)
algo.fit(X_train, (val_in, val_out))
scores = algo.predict(val_in).toarray()
hits = np.mean([len(set(np.argsort(-scores[u])[:10]) & set(val_out[u].indices)) > 0 for u in range(n_users)])
print(f"HitRate@10 on the held-out interactions: {hits:.3f}")

"""The PyCave-style K-Means of bx04 (borchero/pycave #59) with the sampler and aggregator states created in the training precision: KMeans.fit derives the dtype from trainer_params (precision=64 -> float64) and hands it to the DistanceSampler and CentroidAggregator, whose masked_scatter_/scatter_add_ receive float64 batches, so K-Means++ and Lloyd's iterations run in double precision and find the four make_blobs clusters; Metric.double() stays a no-op, and the UniformSampler and BatchSummer keep float32 states fed through copy_/add_ (which cast)
source: https://github.com/borchero/pycave/issues/59
reported-error: (none filed; the fixed situation of bx04)
outcome: ok
root-cause: -
expect: none
"""
import math
import random

import numpy as np
import torch
from sklearn.datasets import make_blobs
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
random.seed(0)


class Metric(nn.Module):
    """torchmetrics-style metric: states are plain attributes, reset to their defaults."""

    def __init__(self):
        super().__init__()
        self._defaults = {}

    def add_state(self, name, default, dist_reduce_fx=None):
        self._defaults[name] = default.clone()
        setattr(self, name, default)

    def reset(self):
        for name, default in self._defaults.items():
            setattr(self, name, default.clone())

    def double(self):
        # Method override default and prevent dtype casting. Please use `Metric.set_dtype` instead.
        return self


class UniformSampler(Metric):
    def __init__(self, num_choices, num_features):
        super().__init__()
        self.num_choices = num_choices
        self.add_state("choices", torch.empty(num_choices, num_features), dist_reduce_fx="cat")
        self.add_state("choice_weights", torch.zeros(num_choices), dist_reduce_fx="cat")

    def update(self, data):
        cum_weight = data.size(0) + self.choice_weights.item()
        if random.random() * cum_weight < data.size(0):
            self.choices.copy_(data[random.randrange(data.size(0))])
        self.choice_weights.add_(data.size(0) / self.num_choices)

    def compute(self):
        return self.choices


class DistanceSampler(Metric):
    def __init__(self, num_choices, num_features, dtype=torch.float32):
        super().__init__()
        self.num_choices = num_choices
        self.num_features = num_features
        self.add_state("choices", torch.empty(num_choices, num_features, dtype=dtype), dist_reduce_fx="cat")
        self.add_state("cumulative_squared_distance", torch.zeros(1, dtype=dtype), dist_reduce_fx="cat")

    def update(self, data, shortest_distances):
        eps = torch.finfo(data.dtype).eps
        squared_distances = shortest_distances.square()
        data_dist = squared_distances.sum()
        cum_dist = data_dist + eps + self.cumulative_squared_distance
        use_choice_from_data = (
            torch.rand(self.num_choices, device=data.device, dtype=data.dtype) * cum_dist
            < data_dist + eps
        )
        choices = (squared_distances + eps).multinomial(self.num_choices, replacement=True)
        self.choices.masked_scatter_(use_choice_from_data.unsqueeze(1), data[choices[use_choice_from_data]])
        self.cumulative_squared_distance.add_(data_dist)

    def compute(self):
        return self.choices


class BatchSummer(Metric):
    def __init__(self, num_values):
        super().__init__()
        self.add_state("sums", torch.zeros(num_values), dist_reduce_fx="sum")

    def update(self, values):
        self.sums.add_(values.sum(0))

    def compute(self):
        return self.sums


class CentroidAggregator(Metric):
    def __init__(self, num_clusters, num_features, dtype=torch.float32):
        super().__init__()
        self.num_clusters, self.num_features = num_clusters, num_features
        self.add_state("centroids", torch.zeros(num_clusters, num_features, dtype=dtype), dist_reduce_fx="sum")
        self.add_state("cluster_counts", torch.zeros(num_clusters, dtype=dtype), dist_reduce_fx="sum")

    def update(self, data, assignments):
        indices = assignments.unsqueeze(1).expand(-1, self.num_features)
        self.centroids.scatter_add_(0, indices, data)
        counts = assignments.bincount(minlength=self.num_clusters)
        self.cluster_counts.add_(counts)

    def compute(self):
        return self.centroids / self.cluster_counts.unsqueeze(-1)


class KMeansModel(nn.Module):
    def __init__(self, num_clusters, num_features):
        super().__init__()
        self.num_clusters, self.num_features = num_clusters, num_features
        self.register_buffer("centroids", torch.empty(num_clusters, num_features))
        nn.init.normal_(self.centroids)

    def forward(self, data):
        distances = torch.cdist(data, self.centroids)
        assignments = distances.min(1, keepdim=True).indices
        inertias = distances.gather(1, assignments).square()
        return distances, assignments.squeeze(1), inertias.squeeze(1)


class KmeansPlusPlusInitLightningModule(nn.Module):
    def __init__(self, model, dtype=torch.float32):
        super().__init__()
        self.model = model
        self.current_epoch = 0
        self.uniform_sampler = UniformSampler(num_choices=1, num_features=model.num_features)
        num_candidates = 2 + int(math.log(model.num_clusters))
        self.distance_sampler = DistanceSampler(num_choices=num_candidates, num_features=model.num_features, dtype=dtype)
        self.candidate_inertia_summer = BatchSummer(num_candidates)
        self.register_buffer("centroid_candidates", torch.empty(num_candidates, model.num_features), persistent=False)
        self.register_buffer("shortest_distance_cache", torch.empty(1), persistent=False)

    def on_train_epoch_start(self):
        if self.current_epoch == 0:
            self.uniform_sampler.reset()
        elif self._is_current_epoch_sampling:
            self.distance_sampler.reset()
        else:
            self.candidate_inertia_summer.reset()

    def training_step(self, batch, batch_idx):
        if self.current_epoch == 0:
            self.uniform_sampler.update(batch)
            return
        if self.current_epoch == 1:
            shortest_distances = torch.cdist(batch, self.model.centroids[:1]).squeeze(1)
            self.shortest_distance_cache = shortest_distances
        elif self._is_current_epoch_sampling:
            latest_distance = torch.cdist(batch, self.model.centroids[self._init_epoch - 1].unsqueeze(0)).squeeze(1)
            shortest_distances = torch.minimum(self.shortest_distance_cache, latest_distance)
            self.shortest_distance_cache = shortest_distances
        else:
            shortest_distances = self.shortest_distance_cache
        if self._is_current_epoch_sampling:
            self.distance_sampler.update(batch, shortest_distances)
        else:
            distances = torch.cdist(batch, self.centroid_candidates)
            updated_distances = torch.minimum(distances, shortest_distances.unsqueeze(1))
            self.candidate_inertia_summer.update(updated_distances)

    def on_train_epoch_end(self):
        if self.current_epoch == 0:
            choice = self.uniform_sampler.compute()
            self.model.centroids[0].copy_(choice[0])
        elif self._is_current_epoch_sampling:
            self.centroid_candidates.copy_(self.distance_sampler.compute())
        else:
            choice = self.candidate_inertia_summer.compute().argmin()
            self.model.centroids[self._init_epoch].copy_(self.centroid_candidates[choice])

    @property
    def _init_epoch(self):
        return (self.current_epoch + 1) // 2

    @property
    def _is_current_epoch_sampling(self):
        return self.current_epoch % 2 == 1


class KMeansLightningModule(nn.Module):
    def __init__(self, model, dtype=torch.float32):
        super().__init__()
        self.model = model
        self.current_epoch = 0
        self.centroid_aggregator = CentroidAggregator(model.num_clusters, model.num_features, dtype=dtype)
        self.inertia = 0.0

    def on_train_epoch_start(self):
        self.centroid_aggregator.reset()
        self.inertia = 0.0

    def training_step(self, batch, batch_idx):
        _, assignments, inertias = self.model.forward(batch)
        self.centroid_aggregator.update(batch, assignments)
        self.inertia += inertias.sum().item()

    def on_train_epoch_end(self):
        self.model.centroids.copy_(self.centroid_aggregator.compute())


class Trainer:
    """Lightning-like loop; precision=64 casts the module (Module.double()) and each float batch to float64."""

    def __init__(self, max_epochs=100, precision=32, **kwargs):
        self.max_epochs, self.precision = max_epochs, precision

    def fit(self, module, loader):
        if self.precision == 64:
            module.double()
        with torch.no_grad():
            for epoch in range(self.max_epochs):
                module.current_epoch = epoch
                module.on_train_epoch_start()
                for batch_idx, (batch,) in enumerate(loader):
                    if self.precision == 64 and batch.is_floating_point():
                        batch = batch.double()
                    module.training_step(batch, batch_idx)
                module.on_train_epoch_end()


class KMeans:
    def __init__(self, num_clusters=1, batch_size=None, trainer_params=None):
        self.num_clusters, self.batch_size = num_clusters, batch_size
        self.trainer_params = trainer_params or {}

    def trainer(self, **kwargs):
        return Trainer(**{**self.trainer_params, **kwargs})

    def fit(self, data):
        self.model_ = KMeansModel(self.num_clusters, len(data[0]))
        loader = DataLoader(TensorDataset(data), batch_size=self.batch_size or len(data))
        dtype = torch.float64 if self.trainer_params.get("precision") == 64 else torch.float32
        module = KmeansPlusPlusInitLightningModule(self.model_, dtype=dtype)
        self.trainer(max_epochs=2 * self.num_clusters - 1).fit(module, loader)
        module = KMeansLightningModule(self.model_, dtype=dtype)
        self.trainer(max_epochs=30).fit(module, loader)
        self.inertia_ = module.inertia
        return self

    def predict(self, data):
        return self.model_(data.to(self.model_.centroids.dtype))[1]


X, y = make_blobs(n_samples=600, centers=4, n_features=3, cluster_std=0.6, random_state=3)
X = torch.from_numpy(X)
kmeans = KMeans(num_clusters=4, trainer_params=dict(precision=64, max_epochs=100))
kmeans.fit(X)
labels = kmeans.predict(X).numpy()
print("inertia", kmeans.inertia_, "cluster sizes", np.bincount(labels))
assert kmeans.model_.centroids.dtype == torch.float64
from sklearn.metrics import adjusted_rand_score
ari = adjusted_rand_score(y, labels)
print("adjusted Rand index vs make_blobs labels", round(ari, 3))
assert ari > 0.95, ari

"""Weakly supervised video anomaly detection (ekosman/AnomalyDetectionCVPR2018-Pytorch at its newest commit: network/TorchUtils.py's TorchModel.save pickles the whole AnomalyDetector with torch.save(self.model, path) after each epoch, and generate_ROC.py evaluates it with TorchModel.load_model, whose load_model calls torch.load(model_path, map_location="cpu")): after TrainingAnomalyDetector_public.py, generate_ROC.py on torch 2.6+ refuses the pickled module under the weights_only=True default
source: https://github.com/ekosman/AnomalyDetectionCVPR2018-Pytorch/blob/cc75759fcd544c69cf38eee8c8d228ce48d620f3/network/TorchUtils.py
reported-error: (repository code, no thread) on torch 2.6+ torch.load of a file written by torch.save(model) stops with "Weights only load failed ... Unsupported global" for the model's class
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL __main__.AnomalyDetector was not an allowed global by default. ... at line 174
root-cause: line 227
expect: DG011
"""
import argparse
import logging
import os
import tempfile
import time
from os import makedirs, path
from typing import Dict, List, Optional, Tuple

import numpy as np
import torch
from torch import Tensor, nn


# ---- feature_extractor.py (reduced to read_features)
def read_features(file_path, cache: Optional[Dict[str, Tensor]] = None) -> Tensor:
    if cache is not None and file_path in cache:
        return cache[file_path]

    if not path.exists(file_path):
        raise FileNotFoundError(f"Feature doesn't exist: `{file_path}`")

    features = None
    with open(file_path) as fp:
        data = fp.read().splitlines(keepends=False)
        features = torch.tensor(
            np.stack([line.split(" ") for line in data]).astype(np.float32)
        )

    if cache is not None:
        cache[file_path] = features
    return features


# ---- features_loader.py (FeaturesLoader)
class FeaturesLoader:
    """Loads video features that are stored as text files."""

    def __init__(self, features_path: str, feature_dim: int, annotation_path: str, bucket_size: int = 30,
                 iterations: int = 20000) -> None:
        super().__init__()
        self._features_path = features_path
        self._feature_dim = feature_dim
        self._bucket_size = bucket_size
        (self.features_list_normal, self.features_list_anomaly) = FeaturesLoader._get_features_list(
            features_path=self._features_path, annotation_path=annotation_path
        )
        self._iterations = iterations
        self._features_cache = {}
        self._i = 0

    def __len__(self) -> int:
        return self._iterations

    def __getitem__(self, index: int) -> Tuple[Tensor, Tensor]:
        if self._i == len(self):
            self._i = 0
            raise StopIteration

        succ = False
        while not succ:
            try:
                feature, label = self.get_features()
                succ = True
            except Exception as e:
                index = np.random.choice(range(0, self.__len__()))
                logging.warning(f"VideoIter:: ERROR!! (Force using another index:\n{index})\n{e}")

        self._i += 1
        return feature, label

    def get_features(self) -> Tuple[Tensor, Tensor]:
        normal_paths = np.random.choice(self.features_list_normal, size=self._bucket_size)
        abnormal_paths = np.random.choice(self.features_list_anomaly, size=self._bucket_size)
        all_paths = np.concatenate([normal_paths, abnormal_paths])
        features = torch.stack(
            [read_features(f"{feature_subpath}.txt", self._features_cache) for feature_subpath in all_paths]
        )
        return (
            features,
            torch.cat([torch.zeros(self._bucket_size), torch.ones(self._bucket_size)]),
        )

    @staticmethod
    def _get_features_list(features_path: str, annotation_path: str) -> Tuple[List[str], List[str]]:
        assert os.path.exists(features_path)
        features_list_normal = []
        features_list_anomaly = []
        with open(annotation_path) as f:
            lines = f.read().splitlines(keepends=False)
            for line in lines:
                items = line.split()
                file = items[0].split(".")[0]
                file = file.replace("/", os.sep)
                feature_path = os.path.join(features_path, file)
                if "Normal" in feature_path:
                    features_list_normal.append(feature_path)
                else:
                    features_list_anomaly.append(feature_path)

        return features_list_normal, features_list_anomaly


# ---- network/anomaly_detector_model.py
class AnomalyDetector(nn.Module):
    """Anomaly detection model for videos."""

    def __init__(self, input_dim=4096) -> None:
        super().__init__()
        self.fc1 = nn.Linear(input_dim, 512)
        self.relu1 = nn.ReLU()
        self.dropout1 = nn.Dropout(0.6)
        self.fc2 = nn.Linear(512, 32)
        self.dropout2 = nn.Dropout(0.6)
        self.fc3 = nn.Linear(32, 1)
        self.sig = nn.Sigmoid()
        nn.init.xavier_normal_(self.fc1.weight)
        nn.init.xavier_normal_(self.fc2.weight)
        nn.init.xavier_normal_(self.fc3.weight)

    def forward(self, x: Tensor) -> Tensor:
        x = self.dropout1(self.relu1(self.fc1(x)))
        x = self.dropout2(self.fc2(x))
        x = self.sig(self.fc3(x))
        return x


def custom_objective(y_pred: Tensor, y_true: Tensor) -> Tensor:
    lambdas = 8e-5
    normal_vids_indices = torch.where(y_true == 0)
    anomal_vids_indices = torch.where(y_true == 1)
    normal_segments_scores = y_pred[normal_vids_indices].squeeze(-1)
    anomal_segments_scores = y_pred[anomal_vids_indices].squeeze(-1)
    normal_segments_scores_maxes = normal_segments_scores.max(dim=-1)[0]
    anomal_segments_scores_maxes = anomal_segments_scores.max(dim=-1)[0]
    hinge_loss = 1 - anomal_segments_scores_maxes + normal_segments_scores_maxes
    hinge_loss = torch.max(hinge_loss, torch.zeros_like(hinge_loss))
    smoothed_scores = anomal_segments_scores[:, 1:] - anomal_segments_scores[:, :-1]
    smoothed_scores_sum_squared = smoothed_scores.pow(2).sum(dim=-1)
    sparsity_loss = anomal_segments_scores.sum(dim=-1)
    return (hinge_loss + lambdas * smoothed_scores_sum_squared + lambdas * sparsity_loss).mean()


class RegularizedLoss(torch.nn.Module):
    def __init__(self, model: AnomalyDetector, original_objective, lambdas: float = 0.001) -> None:
        super().__init__()
        self.lambdas = lambdas
        self.model = model
        self.objective = original_objective

    def forward(self, y_pred: Tensor, y_true: Tensor):
        fc1_params = torch.cat(tuple([x.view(-1) for x in self.model.fc1.parameters()]))
        fc2_params = torch.cat(tuple([x.view(-1) for x in self.model.fc2.parameters()]))
        fc3_params = torch.cat(tuple([x.view(-1) for x in self.model.fc3.parameters()]))
        l1_regularization = self.lambdas * torch.norm(fc1_params, p=2)
        l2_regularization = self.lambdas * torch.norm(fc2_params, p=2)
        l3_regularization = self.lambdas * torch.norm(fc3_params, p=2)
        return self.objective(y_pred, y_true) + l1_regularization + l2_regularization + l3_regularization


# ---- network/TorchUtils.py (load_model and TorchModel, reduced: no callbacks, no DataParallel)
def get_torch_device():
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


def load_model(model_path: str) -> nn.Module:
    logging.info(f"Load the model from: {model_path}")
    model = torch.load(model_path, map_location="cpu")  # fails-here
    logging.info(model)
    return model


class TorchModel(nn.Module):
    def __init__(self, model: nn.Module) -> None:
        super().__init__()
        self.device = get_torch_device()
        self.iteration = 0
        self.model = model

    @classmethod
    def load_model(cls, model_path: str):
        """Loads a pickled model"""
        return cls(load_model(model_path))

    def fit(self, train_iter, criterion, optimizer, epochs=10, network_model_path_base=None, save_every=None):
        criterion = criterion.to(self.device)
        for epoch in range(epochs):
            train_loss = self.do_epoch(criterion=criterion, optimizer=optimizer, data_iter=train_iter, epoch=epoch)
            print(f"epoch {epoch} loss {train_loss:.4f}")
            if save_every and network_model_path_base and epoch % save_every == 0:
                self.save(os.path.join(network_model_path_base, f"epoch_{epoch}.pt"))

    def do_epoch(self, criterion, optimizer, data_iter, epoch) -> float:
        total_loss = 0
        total_time = 0.0
        self.train()
        for iteration, (batch, targets) in enumerate(data_iter):
            self.iteration += 1
            start_time = time.time()
            batch = self.data_to_device(batch, self.device)
            targets = self.data_to_device(targets, self.device)
            outputs = self.model(batch)
            loss = criterion(outputs, targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total_loss += loss.item()
            total_time += time.time() - start_time
        return total_loss / len(data_iter)

    def data_to_device(self, data, device):
        if isinstance(data, list):
            data = [d.to(device) for d in data]
        elif isinstance(data, tuple):
            data = tuple([d.to(device) for d in data])
        else:
            data = data.to(device)
        return data

    def save(self, model_path: str) -> None:
        torch.save(self.model, model_path)  # root-cause

    def get_model(self) -> nn.Module:
        return self.model

    def forward(self, *args, **kwargs):
        return self.model(*args, **kwargs)


# ---- the user's C3D features (written by feature_extractor.py as text, 32 segments per video)
def write_features(features_path, annotation_path, feature_dim, n_videos=6):
    rng = np.random.default_rng(0)
    lines = []
    for kind in ("Normal_Videos_event", "Abuse"):
        makedirs(path.join(features_path, kind), exist_ok=True)
        for i in range(n_videos):
            name = f"{kind}/{kind}{i:03d}_x264"
            feats = rng.normal(size=(32, feature_dim)) + (0.5 if kind == "Abuse" else 0.0)
            with open(path.join(features_path, name + ".txt"), "w") as fp:
                fp.write("\n".join(" ".join(f"{v:.6f}" for v in row) for row in feats))
            lines.append(f"{name}.mp4 {kind}")
    with open(annotation_path, "w") as f:
        f.write("\n".join(lines))
    # Temporal_Anomaly_Annotation style test list: name, length, class, start1 end1 start2 end2
    test_lines = [f"{ln.split()[0]} 512 {ln.split()[1]} " + ("96 224 -1 -1" if "Abuse" in ln else "-1 -1 -1 -1")
                  for ln in lines]
    with open(annotation_path.replace("Train", "Test"), "w") as f:
        f.write("\n".join(test_lines))


# ---- features_loader.py (FeaturesLoaderVal)
class FeaturesLoaderVal(torch.utils.data.Dataset):
    def __init__(self, features_path, annotation_path):
        super().__init__()
        self.features_path = features_path
        self.features_list = FeaturesLoaderVal._get_features_list(features_path, annotation_path)

    def __len__(self):
        return len(self.features_list)

    def __getitem__(self, index: int):
        feature_subpath, start_end_couples, length = self.features_list[index]
        features = read_features(f"{feature_subpath}.txt")
        return features, start_end_couples, length

    @staticmethod
    def _get_features_list(features_path, annotation_path):
        features_list = []
        with open(annotation_path) as f:
            for line in f.read().splitlines(keepends=False):
                items = line.split()
                anomalies_frames = [int(x) for x in items[3:]]
                start_end_couples = torch.tensor([anomalies_frames[:2], anomalies_frames[2:]])
                feature_path = os.path.join(features_path, items[0].split(".")[0].replace("/", os.sep))
                features_list.append((feature_path, start_end_couples, int(items[1])))
        return features_list


# ---- generate_ROC.py (reduced: no plot)
def generate_roc(features_path, annotation_path, model_path):
    from sklearn.metrics import auc, roc_curve

    device = get_torch_device()
    data_loader = FeaturesLoaderVal(features_path=features_path, annotation_path=annotation_path)
    data_iter = torch.utils.data.DataLoader(data_loader, batch_size=1, shuffle=False, num_workers=0)

    model = TorchModel.load_model(model_path).to(device).eval()

    y_trues = torch.tensor([])
    y_preds = torch.tensor([])
    with torch.no_grad():
        for features, start_end_couples, lengths in data_iter:
            features = features.to(device)
            outputs = model(features).squeeze(-1)
            for vid_len, couples, output in zip(lengths, start_end_couples, outputs.cpu().numpy()):
                y_true = np.zeros(vid_len)
                y_pred = np.zeros(vid_len)
                segments_len = vid_len // 32
                for couple in couples:
                    if couple[0] != -1:
                        y_true[couple[0]: couple[1]] = 1
                for i in range(32):
                    y_pred[i * segments_len: (i + 1) * segments_len] = output[i]
                y_trues = torch.cat([y_trues, torch.tensor(y_true)])
                y_preds = torch.cat([y_preds, torch.tensor(y_pred)])

    fpr, tpr, thresholds = roc_curve(y_true=y_trues, y_score=y_preds, pos_label=1)
    print(f"ROC curve (area = {auc(fpr, tpr):0.2f})")


# ---- TrainingAnomalyDetector_public.py
def get_args(argv) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Video Anomaly Detection Training Parser")
    parser.add_argument("--features_path", default="features", help="path to features")
    parser.add_argument("--annotation_path", default="Train_Annotation.txt", help="path to train annotation")
    parser.add_argument("--exps_dir", type=str, default="exps")
    parser.add_argument("--feature_dim", type=int, default=4096, help="feature dimension")
    parser.add_argument("--save_every", type=int, default=1)
    parser.add_argument("--lr_base", type=float, default=0.01, help="learning rate")
    parser.add_argument("--iterations_per_epoch", type=int, default=20000)
    parser.add_argument("--epochs", type=int, default=2, help="number of training epochs")
    return parser.parse_args(argv)


if __name__ == "__main__":
    torch.manual_seed(0)
    np.random.seed(0)
    root = tempfile.mkdtemp()
    write_features(path.join(root, "features"), path.join(root, "Train_Annotation.txt"), feature_dim=256)
    args = get_args(["--features_path", path.join(root, "features"),
                     "--annotation_path", path.join(root, "Train_Annotation.txt"),
                     "--exps_dir", path.join(root, "exps"), "--feature_dim", "256",
                     "--iterations_per_epoch", "4", "--epochs", "2"])

    makedirs(args.exps_dir, exist_ok=True)
    models_dir = path.join(args.exps_dir, "models")
    makedirs(models_dir, exist_ok=True)
    device = get_torch_device()

    train_loader = FeaturesLoader(
        features_path=args.features_path,
        feature_dim=args.feature_dim,
        annotation_path=args.annotation_path,
        bucket_size=4,
        iterations=args.iterations_per_epoch,
    )

    network = AnomalyDetector(args.feature_dim)
    model = TorchModel(network)
    model = model.to(device).train()

    optimizer = torch.optim.Adadelta(model.parameters(), lr=args.lr_base, eps=1e-8)
    criterion = RegularizedLoss(model.get_model(), custom_objective).to(device)

    model.fit(
        train_iter=train_loader,
        criterion=criterion,
        optimizer=optimizer,
        epochs=args.epochs,
        network_model_path_base=models_dir,
        save_every=args.save_every,
    )

    # python generate_ROC.py --features_path ... --annotation_path Test_Annotation.txt --model_path exps/models/epoch_1.pt
    generate_roc(args.features_path, args.annotation_path.replace("Train", "Test"),
                 path.join(models_dir, "epoch_1.pt"))

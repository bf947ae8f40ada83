"""Sleep-stage classification of single-channel EEG (emadeldeen24/AttnSleep: train_Kfold_CV.main picks the loss by name with getattr(module_loss, config['loss']), data_generator_np loads the per-subject .npz folds, calc_class_weight turns the class counts into a list of weights, BaseTrainer moves the model to self.device and Trainer._train_epoch calls criterion(output, target, self.class_weights, self.device)): the variant's weighted_CrossEntropyLoss builds its weight tensor without .to(device), so on a GPU the CUDA logits meet a CPU class-weight tensor
source: https://github.com/emadeldeen24/AttnSleep/blob/6aaed68f3fa4043249100d414aad23ae6106a7ee/model/loss.py
reported-error: (none filed; upstream writes nn.CrossEntropyLoss(weight=torch.tensor(classes_weights).to(device)); the variant drops .to(device) and works only on the CPU)
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but got weight is on cpu, different from other tensors on cuda:0 (when checking argument in method wrapper_CUDA_nll_loss_forward) (not run on a GPU for this set: no device machine was lent to this task) at line 22; on CPU: ok
root-cause: line 21
expect: DG009
"""
import math
import os
import tempfile
from types import SimpleNamespace

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import Dataset


# ---- model/loss.py
def weighted_CrossEntropyLoss(output, target, classes_weights, device):
    cr = nn.CrossEntropyLoss(weight=torch.tensor(classes_weights))  # root-cause
    return cr(output, target)  # fails-here


module_loss = SimpleNamespace(weighted_CrossEntropyLoss=weighted_CrossEntropyLoss)


# ---- model/metric.py
def accuracy(output, target):
    with torch.no_grad():
        pred = torch.argmax(output, dim=1)
        return torch.sum(pred == target).item() / len(target)


module_metric = SimpleNamespace(accuracy=accuracy)


# ---- model/model.py (AttnSleep's MRCNN + attention encoder reduced to one conv feature extractor)
class AttnSleep(nn.Module):
    def __init__(self, num_classes=5):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(1, 16, kernel_size=25, stride=3, bias=False), nn.BatchNorm1d(16), nn.GELU(),
            nn.MaxPool1d(kernel_size=4, stride=4), nn.Dropout(0.5),
            nn.Conv1d(16, 16, kernel_size=8, padding=4, bias=False), nn.BatchNorm1d(16), nn.GELU(),
            nn.AdaptiveAvgPool1d(8))
        self.fc = nn.Linear(16 * 8, num_classes)

    def forward(self, x):
        x = self.features(x)
        return self.fc(x.flatten(1))


module_arch = SimpleNamespace(AttnSleep=AttnSleep)


# ---- data_loader/data_loaders.py
class LoadDataset_from_numpy(Dataset):
    def __init__(self, np_dataset):
        super(LoadDataset_from_numpy, self).__init__()
        X_train = np.load(np_dataset[0])["x"]
        y_train = np.load(np_dataset[0])["y"]
        for np_file in np_dataset[1:]:
            X_train = np.vstack((X_train, np.load(np_file)["x"]))
            y_train = np.append(y_train, np.load(np_file)["y"])
        self.len = X_train.shape[0]
        self.x_data = torch.from_numpy(X_train)
        self.y_data = torch.from_numpy(y_train).long()
        if len(self.x_data.shape) == 3:
            if self.x_data.shape[1] != 1:
                self.x_data = self.x_data.permute(0, 2, 1)
        else:
            self.x_data = self.x_data.unsqueeze(1)

    def __getitem__(self, index):
        return self.x_data[index], self.y_data[index]

    def __len__(self):
        return self.len


def data_generator_np(training_files, subject_files, batch_size):
    train_dataset = LoadDataset_from_numpy(training_files)
    test_dataset = LoadDataset_from_numpy(subject_files)
    all_ys = np.concatenate((train_dataset.y_data, test_dataset.y_data))
    all_ys = all_ys.tolist()
    num_classes = len(np.unique(all_ys))
    counts = [all_ys.count(i) for i in range(num_classes)]
    train_loader = torch.utils.data.DataLoader(dataset=train_dataset, batch_size=batch_size, shuffle=True,
                                               drop_last=False, num_workers=0)
    test_loader = torch.utils.data.DataLoader(dataset=test_dataset, batch_size=batch_size, shuffle=False,
                                              drop_last=False, num_workers=0)
    return train_loader, test_loader, counts


# ---- utils/util.py
def calc_class_weight(labels_count):
    total = np.sum(labels_count)
    class_weight = dict()
    num_classes = len(labels_count)
    factor = 1 / num_classes
    mu = [factor * 1.5, factor * 2, factor * 1.5, factor, factor * 1.5]  # THESE CONFIGS ARE FOR SLEEP-EDF-20 ONLY
    for key in range(num_classes):
        score = math.log(mu[key] * total / float(labels_count[key]))
        class_weight[key] = score if score > 1.0 else 1.0
        class_weight[key] = round(class_weight[key] * mu[key], 2)
    class_weight = [class_weight[i] for i in range(num_classes)]
    return class_weight


# ---- base/base_trainer.py (logging, checkpoints and monitor dropped)
class BaseTrainer:
    def __init__(self, model, criterion, metric_ftns, optimizer, config, fold_id):
        self.config = config
        self.device, device_ids = self._prepare_device(config['n_gpu'])
        self.model = model.to(self.device)
        self.criterion = criterion
        self.metric_ftns = metric_ftns
        self.optimizer = optimizer
        self.epochs = config['trainer']['epochs']
        self.fold_id = fold_id

    def _prepare_device(self, n_gpu_use):
        n_gpu = torch.cuda.device_count()
        if n_gpu_use > n_gpu:
            n_gpu_use = n_gpu
        device = torch.device('cuda:0' if n_gpu_use > 0 else 'cpu')
        return device, list(range(n_gpu_use))

    def train(self):
        for epoch in range(1, self.epochs + 1):
            log = self._train_epoch(epoch, self.epochs)
            print(f"fold {self.fold_id} epoch {epoch}: {log}")


# ---- trainer/trainer.py (validation and metric tracker reduced)
class Trainer(BaseTrainer):
    def __init__(self, model, criterion, metric_ftns, optimizer, config, data_loader, fold_id,
                 valid_data_loader=None, class_weights=None):
        super().__init__(model, criterion, metric_ftns, optimizer, config, fold_id)
        self.data_loader = data_loader
        self.len_epoch = len(self.data_loader)
        self.valid_data_loader = valid_data_loader
        self.class_weights = class_weights

    def _train_epoch(self, epoch, total_epochs):
        self.model.train()
        losses, accs = [], []
        for batch_idx, (data, target) in enumerate(self.data_loader):
            data, target = data.to(self.device), target.to(self.device)
            self.optimizer.zero_grad()
            output = self.model(data)
            loss = self.criterion(output, target, self.class_weights, self.device)
            loss.backward()
            self.optimizer.step()
            losses.append(loss.item())
            accs.extend(met(output, target) for met in self.metric_ftns)
        return {'loss': float(np.mean(losses)), 'accuracy': float(np.mean(accs))}


# ---- train_Kfold_CV.py (ConfigParser replaced by a dict; the .npz folds are synthetic)
def weights_init_normal(m):
    if type(m) == nn.Conv1d:
        torch.nn.init.normal_(m.weight.data, 0.0, 0.02)
    elif type(m) == nn.BatchNorm1d:
        torch.nn.init.normal_(m.weight.data, 1.0, 0.02)
        torch.nn.init.constant_(m.bias.data, 0.0)


def write_fake_folds(folder, n_subjects=4, epochs_per_subject=40, length=600):
    rng = np.random.default_rng(0)
    files = []
    for s in range(n_subjects):
        path = os.path.join(folder, f"SC40{s}1E0.npz")
        np.savez(path, x=rng.normal(size=(epochs_per_subject, length, 1)).astype(np.float32),
                 y=rng.integers(0, 5, epochs_per_subject).astype(np.int32))
        files.append(path)
    return [[files[1:], files[:1]]]


def main(config, fold_id):
    batch_size = config["data_loader"]["args"]["batch_size"]
    model = getattr(module_arch, config['arch']['type'])(**config['arch']['args'])
    model.apply(weights_init_normal)

    criterion = getattr(module_loss, config['loss'])
    metrics = [getattr(module_metric, met) for met in config['metrics']]

    trainable_params = filter(lambda p: p.requires_grad, model.parameters())
    optimizer = getattr(torch.optim, config['optimizer']['type'])(trainable_params, **config['optimizer']['args'])

    data_loader, valid_data_loader, data_count = data_generator_np(folds_data[fold_id][0], folds_data[fold_id][1], batch_size)
    weights_for_each_class = calc_class_weight(data_count)

    trainer = Trainer(model, criterion, metrics, optimizer, config=config, data_loader=data_loader, fold_id=fold_id,
                      valid_data_loader=valid_data_loader, class_weights=weights_for_each_class)
    trainer.train()


if __name__ == '__main__':
    config = {
        "n_gpu": 1,
        "arch": {"type": "AttnSleep", "args": {}},
        "data_loader": {"args": {"batch_size": 32, "num_folds": 1}},
        "optimizer": {"type": "Adam", "args": {"lr": 0.001, "weight_decay": 0.001, "amsgrad": True}},
        "loss": "weighted_CrossEntropyLoss",
        "metrics": ["accuracy"],
        "trainer": {"epochs": 2},
    }
    folds_data = write_fake_folds(tempfile.mkdtemp())
    main(config, 0)

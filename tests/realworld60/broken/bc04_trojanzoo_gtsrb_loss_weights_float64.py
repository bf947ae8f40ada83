"""Training a GTSRB classifier with trojanzoo (re-typed: Dataset.get_loss_weights, the GTSRB dataset with loss_weights=True, utils.tensor.to_tensor, Model.__init__ / define_criterion / loss / _train): the loss weights are NumPy class-count ratios, np.bincount(targets).sum() / np.bincount(targets), a float64 array saved to and loaded from loss_weights.npy, and Model wraps them with to_tensor(loss_weights), which keeps float64; the CrossEntropyLoss weight is then float64 against float32 logits and the first training step fails
source: https://github.com/ain-soph/trojanzoo/issues/72
reported-error: "[GTSRB] Type error when loading loss weights: When loading loss weights from GTSRB dataset, I found the default type of loss weights is np.float64, which will generate the following error: RuntimeError: expected scalar type Float but found Double" (fixed in commit 7fbfb1b, "fix loss_weights dtype issue": to_tensor(loss_weights, dtype=torch.float))
outcome: RuntimeError: expected scalar type Float but found Double at line 115
root-cause: line 96
expect: DG004
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
rng = np.random.default_rng(0)
env = {"device": torch.device("cpu")}
_map = {"int": torch.int, "float": torch.float, "double": torch.double, "long": torch.long}


def to_tensor(x, dtype=None, device="default", **kwargs):
    """trojanzoo/utils/tensor.py"""
    if x is None:
        return None
    if isinstance(dtype, str):
        dtype = _map[dtype]
    if device == "default":
        device = env["device"]
    if isinstance(x, (list, tuple)):
        try:
            x = torch.stack(x)
        except TypeError:
            pass
    return torch.as_tensor(x, dtype=dtype).to(device=device, **kwargs)


class GTSRB:
    """trojanzoo.datasets.Dataset + trojanvision GTSRB (loss_weights=True), with synthetic 32x32 traffic signs."""

    name = "gtsrb"
    num_classes = 43

    def __init__(self, folder_path, loss_weights=True, batch_size=64):
        self.folder_path = folder_path
        # GTSRB is heavily imbalanced: 210 to 2250 training images per class (scaled down here)
        counts = rng.integers(3, 30, size=self.num_classes)
        self.train_targets = np.repeat(np.arange(self.num_classes), counts)
        self.train_images = rng.standard_normal((len(self.train_targets), 3, 32, 32)).astype(np.float32)
        if isinstance(loss_weights, bool):
            loss_weights = self.get_loss_weights() if loss_weights else None
        self.loss_weights = loss_weights
        train_set = torch.utils.data.TensorDataset(torch.from_numpy(self.train_images),
                                                   torch.from_numpy(self.train_targets))
        self.loader = {"train": torch.utils.data.DataLoader(train_set, batch_size=batch_size, shuffle=True)}

    def get_loss_weights(self, file_path=None, verbose=True):
        file_path = file_path if file_path is not None else os.path.join(self.folder_path, "loss_weights.npy")
        if os.path.exists(file_path):
            return np.load(file_path)
        if verbose:
            print("Calculating Loss Weights")
        loss_weights = np.bincount(self.train_targets)
        assert len(loss_weights) == self.num_classes
        loss_weights = loss_weights.sum() / loss_weights  # root-cause-alt
        np.save(file_path, loss_weights)
        if verbose:
            print("Loss Weights Saved at ", file_path)
        return loss_weights


class _ResNetLite(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
                                      nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(),
                                      nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.classifier = nn.Linear(32, num_classes)

    def forward(self, x):
        return self.classifier(self.features(x))


class Model:
    """trojanzoo/models.py: the parts of Model that build and use the criterion."""

    def __init__(self, name="resnet_lite", dataset=None, num_classes=None, **kwargs):
        self.name = name
        self.dataset = dataset
        loss_weights = None if "loss_weights" not in kwargs.keys() else kwargs["loss_weights"]
        if dataset:
            num_classes = num_classes if num_classes is not None else dataset.num_classes
            loss_weights = loss_weights if "loss_weights" in kwargs.keys() else dataset.loss_weights
        self.num_classes = num_classes
        self.loss_weights = loss_weights

        self.criterion = self.define_criterion(weight=to_tensor(loss_weights))  # root-cause
        self.criterion_noreduction = self.define_criterion(weight=to_tensor(loss_weights), reduction="none")
        self._model = _ResNetLite(num_classes)

    def __call__(self, _input):
        return self._model(_input)

    def parameters(self):
        return self._model.parameters()

    def define_criterion(self, **kwargs):
        if "weight" not in kwargs.keys():
            kwargs["weight"] = self.loss_weights
        return nn.CrossEntropyLoss(**kwargs)

    def loss(self, _input=None, _label=None, _output=None, reduction="mean", **kwargs):
        criterion = self.criterion_noreduction if reduction == "none" else self.criterion
        if _output is None:
            _output = self(_input, **kwargs)
        return criterion(_output, _label)  # fails-here

    def _train(self, epochs, optimizer):
        self._model.train()
        for _epoch in range(epochs):
            correct = total = 0
            for _input, _label in self.dataset.loader["train"]:
                _output = self(_input)
                loss = self.loss(_input, _label, _output=_output)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                correct += (_output.argmax(1) == _label).sum().item()
                total += _label.numel()
            print("Epoch %d: loss %.4f, acc %.3f" % (_epoch, loss.item(), correct / total))


with tempfile.TemporaryDirectory() as folder_path:
    dataset = GTSRB(folder_path=folder_path, loss_weights=True)
    model = Model(dataset=dataset)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    model._train(epochs=2, optimizer=optimizer)

"""A pytorch_toolbox TrainLoop run on the CPU backend (re-typed at commit 2ff7308): the user's LoaderBase subclass returns float32 multi-hot attribute targets (ToFloat target transform) for a NetworkBase whose loss is BCEWithLogitsLoss, but TrainLoop.setup_loaded_data hard-codes data.float() / target.long() when backend != "cuda", so the loss gets an int64 target
source: https://github.com/MathGaron/pytorch_toolbox/issues/17
reported-error: "on \"setup_loaded_data\" it will set the data to float and target to long (line 64), which gives me a torch error of mismatching types in the loss function. So my workaround is convert target to float and not to long." (fixed by commit ef110cf "fix hard coded cpu type": .cpu() instead of .float()/.long())
outcome: RuntimeError: result type Float can't be cast to the desired output type Long at line 91
root-cause: line 119
expect: DG007
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader
from torch.utils.data.dataset import Dataset

torch.manual_seed(0)
rng = np.random.default_rng(0)


class ToFloat(object):
    """pytorch_toolbox.transformations.to_float.ToFloat: convert numpy array to float 32 bit"""

    def __call__(self, numpy):
        return numpy.astype(np.float32)


class NumpyImage2Tensor(object):
    """HWC uint8 image -> CHW float tensor in [0, 1]"""

    def __call__(self, img):
        return torch.from_numpy(img.transpose(2, 0, 1).astype(np.float32) / 255.0)


class LoaderBase(Dataset):
    """pytorch_toolbox.loader_base.LoaderBase"""

    def __init__(self, root, data_transforms=[], target_transforms=[]):
        self.imgs = self.make_dataset(root)
        self.root = root
        self.data_transforms = data_transforms
        self.target_transforms = target_transforms

    def __getitem__(self, index):
        data, target = self.from_index(index)
        if not isinstance(data, list):
            data = [data]
        for i, transform in enumerate(self.data_transforms):
            if transform is not None:
                data[i] = transform(data[i])
        for i, transform in enumerate(self.target_transforms):
            if transform is not None:
                target[i] = transform(target[i])
        return data, target

    def __len__(self):
        return len(self.imgs)


class SceneAttributeLoader(LoaderBase):
    """The user's loader: an RGB crop and a multi-hot vector of scene attributes per sample."""
    ATTRIBUTES = ["indoor", "window", "lamp", "sky", "shadow"]

    def make_dataset(self, dir):
        return [(rng.integers(0, 256, (32, 32, 3), dtype=np.uint8), (rng.random(5) < 0.4).astype(np.uint8))
                for _ in range(48)]

    def from_index(self, index):
        img, attributes = self.imgs[index]
        return img, [attributes]


class NetworkBase(nn.Module):
    """pytorch_toolbox.network_base.NetworkBase: forward() plus a loss(predictions, targets) on lists"""

    def loss(self, predictions, targets):
        raise NotImplementedError


class SceneAttributeNet(NetworkBase):
    def __init__(self, n_attributes=5):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.fc = nn.Linear(32 * 8 * 8, n_attributes)
        self.criterion = nn.BCEWithLogitsLoss()

    def forward(self, x):
        x = nn.functional.max_pool2d(nn.functional.elu(self.conv1(x)), 2)
        x = nn.functional.max_pool2d(nn.functional.elu(self.conv2(x)), 2)
        return self.fc(x.flatten(1))

    def loss(self, predictions, targets):
        return self.criterion(predictions[0], targets[0])  # fails-here


class TrainLoop:
    """pytorch_toolbox.train_loop.TrainLoop (tqdm, callbacks and checkpointing left out)"""

    def __init__(self, model, train_data_loader, valid_data_loader, optimizer, backend):
        self.train_data, self.valid_data = train_data_loader, valid_data_loader
        self.optim, self.backend, self.model = optimizer, backend, model
        if backend == "cuda":
            self.model = self.model.cuda()

    @staticmethod
    def setup_loaded_data(data, target, backend):
        """Will make sure that the targets are formated as list in the right backend"""
        if not isinstance(data, list):
            data = [data]
        if not isinstance(target, list):
            target = [target]
        if backend == "cuda":
            for i in range(len(data)):
                data[i] = data[i].cuda()
            for i in range(len(target)):
                target[i] = target[i].cuda()
        else:
            for i in range(len(data)):
                data[i] = data[i].float()
            for i in range(len(target)):
                target[i] = target[i].long()  # root-cause
        return data, target

    def predict(self, data_variable):
        y_pred = self.model(*data_variable)
        if not isinstance(y_pred, tuple):
            y_pred = (y_pred,)
        return y_pred

    def train(self):
        self.model.train()
        total = 0.0
        for data, target in self.train_data:
            data, target = self.setup_loaded_data(data, target, self.backend)
            y_pred = self.predict(data)
            loss = self.model.loss(y_pred, target)
            self.optim.zero_grad()
            loss.backward()
            self.optim.step()
            total += loss.item()
        return total / len(self.train_data)

    def validate(self):
        self.model.eval()
        total = 0.0
        with torch.no_grad():
            for data, target in self.valid_data:
                data, target = self.setup_loaded_data(data, target, self.backend)
                total += self.model.loss(self.predict(data), target).item()
        return total / len(self.valid_data)

    def loop(self, epochs_qty):
        for epoch in range(epochs_qty):
            train_loss, valid_loss = self.train(), self.validate()
            print(f"epoch {epoch}: train {train_loss:.4f} valid {valid_loss:.4f}")


backend = "cpu"  # the reporter ran in CPU mode
transforms = dict(data_transforms=[NumpyImage2Tensor()], target_transforms=[ToFloat()])
train_dataset = SceneAttributeLoader("data/train", **transforms)
valid_dataset = SceneAttributeLoader("data/valid", **transforms)
train_loader = DataLoader(train_dataset, batch_size=8, shuffle=True)
valid_loader = DataLoader(valid_dataset, batch_size=8)

model = SceneAttributeNet()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
train_loop = TrainLoop(model, train_loader, valid_loader, optimizer, backend)
train_loop.loop(3)

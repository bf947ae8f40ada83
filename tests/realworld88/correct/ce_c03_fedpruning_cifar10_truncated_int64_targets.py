"""The FedPruning FedTinyClean CIFAR-10 run of ce03 with the class indices made int64 where CIFAR10_truncated builds them (np.array(cifar_dataobj.targets, dtype=np.int64), the same on every platform), so CrossEntropyLoss gets Long targets, the FedAvg rounds train and the global model is scored; the uint8 images, the float32 normalisation and the int32 platform default constant are kept
source: https://github.com/FedPruning/FedPruning/issues/22
reported-error: (none; the fixed situation of ce03)
outcome: ok
root-cause: -
expect: none
"""
import copy
import logging

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils import data

torch.manual_seed(0)
rng = np.random.default_rng(0)

# np.array(list_of_python_ints) gives the platform's C long: int32 on the reporter's Windows/NumPy 1.x setup
PLATFORM_DEFAULT_INT = np.int32

CIFAR_MEAN = np.array([0.49139968, 0.48215827, 0.44653124], dtype=np.float32)
CIFAR_STD = np.array([0.24703233, 0.24348505, 0.26158768], dtype=np.float32)


class CIFAR10:
    """torchvision.datasets.CIFAR10 as CIFAR10_truncated uses it: .data (N, 32, 32, 3) uint8, .targets a list of ints."""

    def __init__(self, root, train=True, transform=None, target_transform=None, download=False):
        n = 600 if train else 200
        self.targets = [int(t) for t in rng.integers(0, 10, n)]
        base = rng.integers(0, 256, (10, 1, 1, 3))
        noise = rng.integers(-40, 40, (n, 32, 32, 3))
        self.data = np.clip(base[self.targets] + noise, 0, 255).astype(np.uint8)


def valid_transform(img):
    """transforms.Compose([ToTensor(), Normalize(CIFAR_MEAN, CIFAR_STD)])."""
    x = (img.astype(np.float32) / 255.0 - CIFAR_MEAN) / CIFAR_STD
    return torch.from_numpy(x.transpose(2, 0, 1).copy())


class CIFAR10_truncated(data.Dataset):

    def __init__(self, root, dataidxs=None, train=True, transform=None, target_transform=None, download=False):
        self.root = root
        self.dataidxs = dataidxs
        self.train = train
        self.transform = transform
        self.target_transform = target_transform
        self.download = download
        self.data, self.target = self.__build_truncated_dataset__()

    def __build_truncated_dataset__(self):
        cifar_dataobj = CIFAR10(self.root, self.train, self.transform, self.target_transform, self.download)
        data_ = cifar_dataobj.data
        target = np.array(cifar_dataobj.targets, dtype=np.int64)
        if self.dataidxs is not None:
            data_ = data_[self.dataidxs]
            target = target[self.dataidxs]
        return data_, target

    def __getitem__(self, index):
        img, target = self.data[index], self.target[index]
        if self.transform is not None:
            img = self.transform(img)
        if self.target_transform is not None:
            target = self.target_transform(target)
        return img, target

    def __len__(self):
        return len(self.data)


def partition_data(n_train, n_nets):
    idxs = rng.permutation(n_train)
    batch_idxs = np.array_split(idxs, n_nets)
    return {i: batch_idxs[i] for i in range(n_nets)}


def get_dataloader_CIFAR10(datadir, train_bs, test_bs, dataidxs=None):
    train_ds = CIFAR10_truncated(datadir, dataidxs=dataidxs, train=True, transform=valid_transform, download=True)
    test_ds = CIFAR10_truncated(datadir, train=False, transform=valid_transform, download=True)
    train_dl = data.DataLoader(dataset=train_ds, batch_size=train_bs, shuffle=True, drop_last=True)
    test_dl = data.DataLoader(dataset=test_ds, batch_size=test_bs, shuffle=False, drop_last=True)
    return train_dl, test_dl


def load_partition_data_cifar10(data_dir, client_number, batch_size):
    net_dataidx_map = partition_data(600, client_number)
    train_data_global, test_data_global = get_dataloader_CIFAR10(data_dir, batch_size, batch_size)
    train_data_local_dict, test_data_local_dict, train_data_local_num_dict = {}, {}, {}
    for client_idx in range(client_number):
        dataidxs = net_dataidx_map[client_idx]
        train_data_local_num_dict[client_idx] = len(dataidxs)
        train_local, test_local = get_dataloader_CIFAR10(data_dir, batch_size, batch_size, dataidxs)
        train_data_local_dict[client_idx] = train_local
        test_data_local_dict[client_idx] = test_local
    return train_data_global, test_data_global, train_data_local_num_dict, train_data_local_dict, test_data_local_dict, 10


# ---- model: a narrow ResNet-18-style network (BasicBlock, 2-2-2-2) ---------------------------------------------
class BasicBlock(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.shortcut = nn.Sequential()
        if stride != 1 or cin != cout:
            self.shortcut = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + self.shortcut(x))


def resnet18(num_classes=10, width=8):
    layers, cin = [nn.Conv2d(3, width, 3, 1, 1, bias=False), nn.BatchNorm2d(width), nn.ReLU()], width
    for i, cout in enumerate([width, 2 * width, 4 * width, 8 * width]):
        for j in range(2):
            layers.append(BasicBlock(cin, cout, 2 if (j == 0 and i > 0) else 1))
            cin = cout
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(cin, num_classes)]
    return nn.Sequential(*layers)


# ---- api/standalone/fedtinyclean/my_model_trainer_classification.py --------------------------------------------
class MyModelTrainer:
    def __init__(self, model):
        self.model = model
        self.id = 0

    def set_id(self, trainer_id):
        self.id = trainer_id

    def get_model_params(self):
        return self.model.cpu().state_dict()

    def set_model_params(self, model_parameters):
        self.model.load_state_dict(model_parameters, strict=False)

    def train(self, train_data, device, args, mode, round_idx=None):
        model = self.model
        model.to(device)
        model.train()
        criterion = nn.CrossEntropyLoss().to(device)
        optimizer = torch.optim.SGD(filter(lambda p: p.requires_grad, self.model.parameters()), lr=args["lr"])
        epoch_loss = []
        for epoch in range(args["epochs"]):
            batch_loss = []
            for batch_idx, (x, labels) in enumerate(train_data):
                x, labels = x.to(device), labels.to(device)
                model.zero_grad()
                log_probs = model(x)
                loss = criterion(log_probs, labels)
                loss.backward()
                optimizer.step()
                batch_loss.append(loss.item())
            epoch_loss.append(sum(batch_loss) / len(batch_loss))
            logging.info("Client Index = %d\tEpoch: %d\tLoss: %.6f", self.id, epoch, sum(epoch_loss) / len(epoch_loss))

    def test(self, test_data, device, args):
        model = self.model
        model.to(device)
        model.eval()
        metrics = {"test_correct": 0, "test_loss": 0, "test_total": 0}
        criterion = nn.CrossEntropyLoss().to(device)
        with torch.no_grad():
            for batch_idx, (x, target) in enumerate(test_data):
                x, target = x.to(device), target.to(device)
                pred = model(x)
                loss = criterion(pred, target)
                _, predicted = torch.max(pred, -1)
                metrics["test_correct"] += predicted.eq(target).sum().item()
                metrics["test_loss"] += loss.item() * target.size(0)
                metrics["test_total"] += target.size(0)
        return metrics


# ---- FedTinyCleanAPI.train (FedAvg rounds over the sampled clients) ---------------------------------------------
def main():
    args = {"lr": 0.05, "epochs": 1, "client_num_in_total": 3, "comm_round": 2, "batch_size": 32}
    device = torch.device("cpu")
    (train_global, test_global, local_num, train_local, test_local,
     class_num) = load_partition_data_cifar10("./data/cifar10", args["client_num_in_total"], args["batch_size"])
    trainer = MyModelTrainer(resnet18(num_classes=class_num))
    w_global = copy.deepcopy(trainer.get_model_params())
    for round_idx in range(args["comm_round"]):
        w_locals = []
        for client_idx in range(args["client_num_in_total"]):
            trainer.set_id(client_idx)
            trainer.set_model_params(copy.deepcopy(w_global))
            trainer.train(train_local[client_idx], device, args, mode=0, round_idx=round_idx)
            w_locals.append((local_num[client_idx], copy.deepcopy(trainer.get_model_params())))
        total = sum(n for n, _ in w_locals)
        w_global = {k: sum(w[k] * (n / total) for n, w in w_locals).to(w_locals[0][1][k].dtype) for k in w_global}
        trainer.set_model_params(w_global)
        m = trainer.test(test_global, device, args)
        print(f"round {round_idx}: test acc {m['test_correct'] / m['test_total']:.3f} "
              f"loss {m['test_loss'] / m['test_total']:.4f}")


main()

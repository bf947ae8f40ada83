"""Single-GPU baseline of the PyTorch DDP tutorial series (pytorch/examples distributed/ddp-tutorial-series: datautils.MyTrainDataset, single_gpu.py's Trainer with gpu_id/_run_batch/_run_epoch/_save_checkpoint, load_train_objs, prepare_dataloader, argparse main): the variant fills the template's "load your dataset" with rows of a pandas CSV, turning each row of df.to_numpy() into tensors with torch.from_numpy, so every sample is float64 and the float32 Linear(20, 1) fails in Trainer._run_batch
source: https://github.com/pytorch/examples/blob/f45e418444b572ee5c782b90a0c2cae2489208bc/distributed/ddp-tutorial-series/datautils.py
reported-error: (none filed; upstream's MyTrainDataset draws torch.rand(20) / torch.rand(1), which are float32; the variant's CSV rows are float64)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 53
root-cause: line 26
expect: DG004
"""
import os
import tempfile

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F
from torch.utils.data import Dataset, DataLoader

WORKDIR = tempfile.mkdtemp()


# ---- datautils.py
class MyTrainDataset(Dataset):
    def __init__(self, size, csv_path):
        df = pd.read_csv(csv_path).iloc[:size]
        self.size = size
        rows = df.to_numpy()
        self.data = [(torch.from_numpy(r[:20]), torch.from_numpy(r[20:])) for r in rows]  # root-cause

    def __len__(self):
        return self.size

    def __getitem__(self, index):
        return self.data[index]


# ---- single_gpu.py
class Trainer:
    def __init__(
        self,
        model: torch.nn.Module,
        train_data: DataLoader,
        optimizer: torch.optim.Optimizer,
        gpu_id,
        save_every: int,
    ) -> None:
        self.gpu_id = gpu_id
        self.model = model.to(gpu_id)
        self.train_data = train_data
        self.optimizer = optimizer
        self.save_every = save_every

    def _run_batch(self, source, targets):
        self.optimizer.zero_grad()
        output = self.model(source)  # fails-here
        loss = F.cross_entropy(output, targets)
        loss.backward()
        self.optimizer.step()

    def _run_epoch(self, epoch):
        b_sz = len(next(iter(self.train_data))[0])
        print(f"[GPU{self.gpu_id}] Epoch {epoch} | Batchsize: {b_sz} | Steps: {len(self.train_data)}")
        for source, targets in self.train_data:
            source = source.to(self.gpu_id)
            targets = targets.to(self.gpu_id)
            self._run_batch(source, targets)

    def _save_checkpoint(self, epoch):
        ckp = self.model.state_dict()
        PATH = os.path.join(WORKDIR, "checkpoint.pt")
        torch.save(ckp, PATH)
        print(f"Epoch {epoch} | Training checkpoint saved at {PATH}")

    def train(self, max_epochs: int):
        for epoch in range(max_epochs):
            self._run_epoch(epoch)
            if epoch % self.save_every == 0:
                self._save_checkpoint(epoch)


def write_csv(path, n=256):
    rng = np.random.default_rng(0)
    x = rng.random((n, 20))
    df = pd.DataFrame(x, columns=[f"f{i}" for i in range(20)])
    df["y"] = x.mean(1)
    df.to_csv(path, index=False)


def load_train_objs():
    csv_path = os.path.join(WORKDIR, "train.csv")
    write_csv(csv_path)
    train_set = MyTrainDataset(256, csv_path)  # load your dataset
    model = torch.nn.Linear(20, 1)  # load your model
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
    return train_set, model, optimizer


def prepare_dataloader(dataset: Dataset, batch_size: int):
    return DataLoader(
        dataset,
        batch_size=batch_size,
        pin_memory=torch.cuda.is_available(),
        shuffle=True
    )


def main(device, total_epochs, save_every, batch_size):
    dataset, model, optimizer = load_train_objs()
    train_data = prepare_dataloader(dataset, batch_size)
    trainer = Trainer(model, train_data, optimizer, device, save_every)
    trainer.train(total_epochs)


if __name__ == "__main__":
    import argparse
    parser = argparse.ArgumentParser(description='simple distributed training job')
    parser.add_argument('total_epochs', type=int, nargs='?', default=2, help='Total epochs to train the model')
    parser.add_argument('save_every', type=int, nargs='?', default=1, help='How often to save a snapshot')
    parser.add_argument('--batch_size', default=32, type=int, help='Input batch size on each device (default: 32)')
    args = parser.parse_args()

    device = 0 if torch.cuda.is_available() else "cpu"  # shorthand for cuda:0
    main(device, args.total_epochs, args.save_every, args.batch_size)

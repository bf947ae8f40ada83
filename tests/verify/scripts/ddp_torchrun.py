"""A pytorch/examples multigpu_torchrun.py-style trainer (reads LOCAL_RANK, init_process_group("nccl"), DDP):
what torchrun launches on a GPU box; verify runs it as a one-process world on the CPU."""
import os

import torch
import torch.nn.functional as F
from torch.distributed import destroy_process_group, init_process_group
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler


class MyTrainDataset(Dataset):
    def __init__(self, size):
        self.data = [(torch.rand(20), torch.rand(1)) for _ in range(size)]

    def __len__(self):
        return len(self.data)

    def __getitem__(self, index):
        return self.data[index]


def ddp_setup():
    backend = "nccl"
    init_process_group(backend=backend)
    if torch.cuda.is_available():
        torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))


class Trainer:
    def __init__(self, model, train_data, optimizer):
        self.local_rank = int(os.environ["LOCAL_RANK"])
        self.device = torch.device(f"cuda:{self.local_rank}" if torch.cuda.is_available() else "cpu")
        self.model = DDP(model.to(self.device), device_ids=[self.local_rank] if torch.cuda.is_available() else None)
        self.train_data = train_data
        self.optimizer = optimizer

    def _run_batch(self, source, targets):
        self.optimizer.zero_grad()
        loss = F.mse_loss(self.model(source), targets)
        loss.backward()
        self.optimizer.step()

    def train(self, max_epochs):
        for epoch in range(max_epochs):
            self.train_data.sampler.set_epoch(epoch)
            for source, targets in self.train_data:
                self._run_batch(source.to(self.device), targets.to(self.device))


def main(total_epochs=1, batch_size=32):
    ddp_setup()
    dataset = MyTrainDataset(256)
    model = torch.nn.Linear(20, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
    loader = DataLoader(dataset, batch_size=batch_size, shuffle=False, sampler=DistributedSampler(dataset))
    Trainer(model, loader, optimizer).train(total_epochs)
    destroy_process_group()


if __name__ == "__main__":
    main()

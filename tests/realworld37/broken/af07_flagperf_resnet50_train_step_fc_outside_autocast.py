"""FlagPerf's ResNet-50 benchmark (FlagOpen/FlagPerf training/benchmarks/resnet50/pytorch: Trainer.init builds the model and runs the adapter's convert_model / model_to_fp16 / model_to_ddp / create_grad_scaler, train_one_epoch hands each batch to adapter.train_step, which runs model and criterion under autocast and steps through the GradScaler) with a train_step that keeps the classifier out of autocast for a full-precision head: the backbone's low-precision features made inside the block reach the float32 fc Linear after it
source: https://github.com/FlagOpen/FlagPerf/blob/1b5a030398ab719e406f77877eb34c9599b17fd2/training/benchmarks/resnet50/pytorch/train/trainer_adapter.py
reported-error: (none filed; train_step runs output = model(images) and the loss inside torch.cuda.amp.autocast(enabled=True); the variant splits the forward into model.backbone (inside) and model.fc (after the block), with torch.autocast(device_type) so that the CPU run autocasts too)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got BFloat16 and Float at line 113
root-cause: line 111
expect: DG017
"""
import tempfile
import time
from types import SimpleNamespace

import torch
import torch.nn as nn
import torch.utils.data
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.optim import SGD
from torch.optim.lr_scheduler import StepLR

# ---- config/_base.py + nvidia/resnet50-pytorch/config/config_A100x1x1.py (the vendor override)
config = SimpleNamespace(
    vendor="nvidia", data_dir=tempfile.mkdtemp(), name="resnet50",
    lr=0.1, weight_decay=0.0001, momentum=0.9, lr_steps=1, lr_gamma=0.1,
    train_batch_size=8, eval_batch_size=8, target_acc1=68.6, max_epoch=2,
    do_train=True, fp16=False, amp=True, distributed=False,
    seed=41, num_workers=0, device="cuda" if torch.cuda.is_available() else "cpu",
    local_rank=-1, log_freq=2, n_device=1,
)


def main_proc_print(*args):
    print(*args)


# ---- model/__init__.py (torchvision's resnet50 at toy size, split into backbone and fc)
class Bottleneck(nn.Module):
    def __init__(self, inplanes, planes):
        super().__init__()
        self.conv1, self.bn1 = nn.Conv2d(inplanes, planes, 1, bias=False), nn.BatchNorm2d(planes)
        self.conv2, self.bn2 = nn.Conv2d(planes, planes, 3, padding=1, bias=False), nn.BatchNorm2d(planes)
        self.conv3, self.bn3 = nn.Conv2d(planes, inplanes, 1, bias=False), nn.BatchNorm2d(inplanes)
        self.relu = nn.ReLU(inplace=True)

    def forward(self, x):
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        return self.relu(self.bn3(self.conv3(out)) + x)


class ResNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 32, 3, 2, 1, bias=False), nn.BatchNorm2d(32), nn.ReLU(inplace=True),
            Bottleneck(32, 8), Bottleneck(32, 8), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Linear(32, num_classes)

    def forward(self, x):
        return self.fc(self.backbone(x))


def create_model():
    return ResNet()


# ---- optimizers/__init__.py
def create_optimizer(model, args):
    params = [p for p in model.parameters() if p.requires_grad]
    opt = SGD(params, lr=args.lr, momentum=args.momentum, weight_decay=args.weight_decay)
    return opt


# ---- schedulers/__init__.py
def create_scheduler(optimizer, args):
    return StepLR(optimizer, step_size=args.lr_steps, gamma=args.lr_gamma)


# ---- train/trainer_adapter.py
def convert_model(model: nn.Module) -> nn.Module:
    """convert_model"""
    return model


def model_to_fp16(model: nn.Module) -> nn.Module:
    """model_to_fp16"""
    # To prevent OOM for model sizes that cannot fit in GPU memory in full precision
    if config.fp16:
        main_proc_print(" > use fp16...")
        model.to(torch.bfloat16)
    return model


def model_to_ddp(model: nn.Module) -> nn.Module:
    """model_to_ddp"""
    if torch.distributed.is_available() and torch.distributed.is_initialized():
        model = DDP(model, device_ids=[config.local_rank])
    return model


def create_grad_scaler():
    """create_grad_scaler for mixed precision training"""
    scaler = torch.amp.GradScaler(torch.device(config.device).type) if config.amp else None
    return scaler


def train_step(model, batch, optimizer, scaler=None):
    """train one step"""
    images, target = batch
    criterion = torch.nn.CrossEntropyLoss()
    if scaler:
        with torch.autocast(device_type=images.device.type, enabled=True):
            features = model.backbone(images)  # root-cause
        # classifier and loss in full precision
        output = model.fc(features)  # fails-here
        loss = criterion(output, target)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
    else:
        output = model(images)
        loss = criterion(output, target)
        loss.backward()
        optimizer.step()

    return loss


trainer_adapter = SimpleNamespace(convert_model=convert_model, model_to_fp16=model_to_fp16,
                                  model_to_ddp=model_to_ddp, create_grad_scaler=create_grad_scaler,
                                  train_step=train_step)


# ---- dataloaders/dataloader.py (ImageFolder replaced by random 32x32 images)
class ToFloat16(object):

    def __call__(self, tensor):
        return tensor.to(dtype=torch.float16)


def build_train_dataset(config, n=32):
    g = torch.Generator().manual_seed(config.seed)
    images = torch.rand(n, 3, 32, 32, generator=g)
    if config.fp16:
        images = ToFloat16()(images)
    return torch.utils.data.TensorDataset(images, torch.randint(0, 10, (n,), generator=g))


def build_train_dataloader(dataset, config):
    return torch.utils.data.DataLoader(dataset, batch_size=config.train_batch_size, shuffle=True,
                                       num_workers=config.num_workers)


# ---- train/training_state.py
class TrainingState:
    epoch = 1
    end_training = False
    purecomputetime = 0.0
    noevaltime = 0.0
    num_trained_samples = 0


# ---- train/trainer.py
class Trainer:

    def __init__(self, adapter, training_state, device, config):
        self.adapter = adapter
        self.training_state = training_state
        self.device = device
        self.config = config

    def init(self):
        main_proc_print("Init progress:")
        self.model = create_model()
        self.model.to(self.device)

        self.model = self.adapter.convert_model(self.model)
        self.model = self.adapter.model_to_fp16(self.model)
        self.model = self.adapter.model_to_ddp(self.model)

        self.optimizer = create_optimizer(self.model, self.config)
        self.lr_scheduler = create_scheduler(self.optimizer, self.config)

        self.scaler = self.adapter.create_grad_scaler()

    def process_batch(self, batch, device):
        """Process batch and produce inputs for the model."""
        batch = tuple(t.to(device, non_blocking=True) for t in batch)
        return batch

    def train_one_epoch(self, train_dataloader):
        model = self.model
        optimizer = self.optimizer
        device = self.device
        scaler = self.scaler
        print("Epoch " + str(self.training_state.epoch + 1))

        model.train()
        noeval_start_time = time.time()
        for step, batch in enumerate(train_dataloader):
            batch = self.process_batch(batch, device)
            pure_start_time = time.time()
            optimizer.zero_grad()
            loss = self.adapter.train_step(model, batch, optimizer, scaler)

            if step % self.config.log_freq == 0:
                print("Train Step " + str(step) + "/" + str(len(train_dataloader)) + ", Loss : " + str(float(loss)))
            self.training_state.purecomputetime += time.time() - pure_start_time

        self.lr_scheduler.step()
        self.training_state.noevaltime += time.time() - noeval_start_time
        if self.training_state.epoch + 1 >= self.config.max_epoch:
            self.training_state.end_training = True
        self.training_state.num_trained_samples += len(train_dataloader.dataset)


# ---- run_pretraining.py
def main():
    torch.manual_seed(config.seed)
    train_dataloader = build_train_dataloader(build_train_dataset(config), config)
    training_state = TrainingState()
    trainer = Trainer(adapter=trainer_adapter, training_state=training_state, device=config.device, config=config)
    trainer.init()
    epoch = 0
    while not training_state.end_training:
        training_state.epoch = epoch
        trainer.train_one_epoch(train_dataloader)
        epoch += 1
    return config, training_state


if __name__ == "__main__":
    config_update, state = main()
    print("finished:", {"num_trained_samples": state.num_trained_samples})

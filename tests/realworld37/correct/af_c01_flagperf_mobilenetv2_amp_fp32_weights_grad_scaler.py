"""FlagPerf's MobileNetV2 benchmark (FlagOpen/FlagPerf training/benchmarks/mobilenetv2/pytorch) with the vendor config that turns on amp and leaves fp16 = False: model_to_fp16 keeps the float32 weights, train_one_epoch runs the forward and the loss under float16 autocast and the GradScaler scales, unscales and steps float32 gradients (the adapter's model.half() branch and the float16 autocast stay in the code)
source: https://github.com/FlagOpen/FlagPerf/blob/1b5a030398ab719e406f77877eb34c9599b17fd2/training/benchmarks/mobilenetv2/pytorch/train/trainer_adapter.py
reported-error: (none filed; the fixed situation of af01)
outcome: ok
root-cause: -
expect: none
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

# ---- config/_base.py + nvidia/mobilenetv2-pytorch/config/config_A100x1x1.py (the vendor override)
config = SimpleNamespace(
    vendor="nvidia", data_dir=tempfile.mkdtemp(), name="mobilenetv2",
    lr=0.045, weight_decay=0.00004, momentum=0.9, lr_steps=1, lr_gamma=0.98,
    train_batch_size=8, eval_batch_size=8, target_acc1=68.6, max_epoch=2,
    do_train=True, fp16=False, amp=True, distributed=False,
    seed=41, num_workers=0, device="cuda" if torch.cuda.is_available() else "cpu",
    local_rank=-1, log_freq=2, n_device=1,
)


def main_proc_print(*args):
    print(*args)


# ---- model/__init__.py (torchvision's mobilenet_v2 at toy size)
class InvertedResidual(nn.Module):
    def __init__(self, inp, oup, stride, expand_ratio):
        super().__init__()
        hidden = inp * expand_ratio
        self.use_res_connect = stride == 1 and inp == oup
        self.conv = nn.Sequential(
            nn.Conv2d(inp, hidden, 1, bias=False), nn.BatchNorm2d(hidden), nn.ReLU6(inplace=True),
            nn.Conv2d(hidden, hidden, 3, stride, 1, groups=hidden, bias=False), nn.BatchNorm2d(hidden), nn.ReLU6(inplace=True),
            nn.Conv2d(hidden, oup, 1, bias=False), nn.BatchNorm2d(oup))

    def forward(self, x):
        return x + self.conv(x) if self.use_res_connect else self.conv(x)


def mobilenet_v2(num_classes=10):
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, 2, 1, bias=False), nn.BatchNorm2d(16), nn.ReLU6(inplace=True),
        InvertedResidual(16, 24, 2, 6), InvertedResidual(24, 24, 1, 6),
        nn.Conv2d(24, 64, 1, bias=False), nn.BatchNorm2d(64), nn.ReLU6(inplace=True),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(64, num_classes))


def create_model():
    return mobilenet_v2()


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
    return model


def model_to_fp16(model: nn.Module) -> nn.Module:
    # To prevent OOM for model sizes that cannot fit in GPU memory in full precision
    if config.fp16:
        main_proc_print(" > use fp16...")
        model.half()
    return model


def model_to_ddp(model: nn.Module) -> nn.Module:
    if torch.distributed.is_available() and torch.distributed.is_initialized():
        model = DDP(model, device_ids=[config.local_rank])
    return model


def create_grad_scaler():
    """create_grad_scaler for mixed precision training"""
    scaler = torch.amp.GradScaler(torch.device(config.device).type) if config.amp else None
    return scaler


trainer_adapter = SimpleNamespace(convert_model=convert_model, model_to_fp16=model_to_fp16,
                                  model_to_ddp=model_to_ddp, create_grad_scaler=create_grad_scaler)


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

            images, target = batch
            if scaler is not None:
                with torch.autocast(device_type=torch.device(device).type, dtype=torch.float16):
                    output = model(images)

                    criterion = torch.nn.CrossEntropyLoss()
                    loss = criterion(output, target)

                scaler.scale(loss).backward()
                scaler.step(optimizer)
                scaler.update()
            else:
                output = model(images)
                criterion = torch.nn.CrossEntropyLoss()
                loss = criterion(output, target)
                loss.backward()
                optimizer.step()

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

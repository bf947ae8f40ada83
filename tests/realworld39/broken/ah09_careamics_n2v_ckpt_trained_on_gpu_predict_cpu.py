"""Noise2Void denoising of an SEM image with CAREamics (CAREamics issue #145: a CAREamist trained one epoch on a Linux machine with a GPU writes its Lightning checkpoint sem_n2v_1epoch.ckpt; on a CPU-only machine CAREamist(Path("sem_n2v_1epoch.ckpt")) goes through load_pretrained -> _load_checkpoint, whose `checkpoint: dict = torch.load(path)` has no map_location): the CUDA storages of the checkpoint cannot be restored before the configuration is even read
source: https://github.com/CAREamics/careamics/issues/145
reported-error: "Loading checkpoint with a different device": a checkpoint trained on the GPU is not loadable on a machine with CPU only; CAREamist(Path("sem_n2v_1epoch.ckpt")) raises RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. ... from model_io_utils._load_checkpoint
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 132
root-cause: line 132
expect: DG010
"""
import contextlib
import logging
import tempfile
import warnings
from pathlib import Path

import numpy as np

import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader

from lightning.pytorch import LightningModule, Trainer
from lightning.pytorch.callbacks import ModelCheckpoint

logging.getLogger("lightning.pytorch").setLevel(logging.ERROR)
warnings.filterwarnings("ignore")


# ---- careamics/models/unet.py (a two-level UNet)
class Conv_Block(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.block = nn.Sequential(nn.Conv2d(in_channels, out_channels, 3, padding=1), nn.BatchNorm2d(out_channels),
                                   nn.ReLU(), nn.Conv2d(out_channels, out_channels, 3, padding=1),
                                   nn.BatchNorm2d(out_channels), nn.ReLU())

    def forward(self, x):
        return self.block(x)


class UNet(nn.Module):
    def __init__(self, conv_dims=2, num_classes=1, in_channels=1, depth=2, num_channels_init=16):
        super().__init__()
        self.down1 = Conv_Block(in_channels, num_channels_init)
        self.down2 = Conv_Block(num_channels_init, num_channels_init * 2)
        self.pool = nn.MaxPool2d(2)
        self.up = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True)
        self.dec1 = Conv_Block(num_channels_init * 3, num_channels_init)
        self.final_conv = nn.Conv2d(num_channels_init, num_classes, 1)

    def forward(self, x):
        d1 = self.down1(x)
        d2 = self.down2(self.pool(d1))
        u1 = self.dec1(torch.cat([self.up(d2), d1], dim=1))
        return self.final_conv(u1)


# ---- careamics/transforms/n2v_manipulate.py
def uniform_manipulate(patch, mask_pixel_percentage=0.2, subpatch_size=5, rng=None):
    rng = rng if rng is not None else np.random.default_rng()
    transformed = patch.copy()
    h, w = patch.shape[-2:]
    n = max(1, int(h * w * mask_pixel_percentage / 100))
    ys, xs = rng.integers(0, h, n), rng.integers(0, w, n)
    dy = rng.integers(-(subpatch_size // 2), subpatch_size // 2 + 1, n)
    dx = rng.integers(-(subpatch_size // 2), subpatch_size // 2 + 1, n)
    transformed[..., ys, xs] = patch[..., np.clip(ys + dy, 0, h - 1), np.clip(xs + dx, 0, w - 1)]
    mask = np.zeros_like(patch, dtype=np.uint8)
    mask[..., ys, xs] = 1
    return transformed, patch, mask


# ---- careamics/dataset/in_memory_dataset.py
class InMemoryDataset(Dataset):
    def __init__(self, data, patch_size=(32, 32), mean=None, std=None, seed=0):
        self.rng = np.random.default_rng(seed)
        self.mean = float(data.mean()) if mean is None else mean
        self.std = float(data.std()) if std is None else std
        ph, pw = patch_size
        patches = [data[y:y + ph, x:x + pw] for y in range(0, data.shape[0] - ph + 1, ph)
                   for x in range(0, data.shape[1] - pw + 1, pw)]
        self.patches = np.stack(patches)[:, np.newaxis].astype(np.float32)

    def __len__(self):
        return len(self.patches)

    def __getitem__(self, index):
        patch = (self.patches[index] - self.mean) / self.std
        masked, original, mask = uniform_manipulate(patch, rng=self.rng)
        return masked.astype(np.float32), original.astype(np.float32), mask


# ---- careamics/losses/losses.py
def n2v_loss(manipulated_patches, original_patches, masks):
    errors = (original_patches - manipulated_patches) ** 2
    return torch.sum(errors * masks) / torch.sum(masks)


# ---- careamics/lightning/lightning_module.py
class FCNModule(LightningModule):
    def __init__(self, algorithm_config):
        super().__init__()
        self.save_hyperparameters({"algorithm_config": algorithm_config})
        model_cfg = algorithm_config["model"]
        self.model = UNet(conv_dims=model_cfg["conv_dims"], depth=model_cfg["depth"],
                          num_channels_init=model_cfg["num_channels_init"])
        self.loss_func = n2v_loss
        self.optimizer_params = algorithm_config["optimizer"]["parameters"]

    def forward(self, x):
        return self.model(x)

    def training_step(self, batch, batch_idx):
        x, *aux = batch
        out = self.model(x)
        loss = self.loss_func(out, *aux)
        self.log("train_loss", loss, on_step=True, on_epoch=True, prog_bar=False, logger=False)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.model.parameters(), **self.optimizer_params)


# ---- careamics/model_io/model_io_utils.py
def load_pretrained(path):
    path = Path(path)
    if path.suffix == ".ckpt":
        return _load_checkpoint(path)
    raise ValueError(f"Invalid model format. Expected .ckpt or .zip, got {path.suffix}.")


def _load_checkpoint(path):
    # load checkpoint
    checkpoint: dict = torch.load(path)  # root-cause  # fails-here

    # attempt to load configuration
    try:
        cfg_dict = checkpoint["hyper_parameters"]
    except KeyError as e:
        raise ValueError(f"Invalid checkpoint file. No `hyper_parameters` found in the checkpoint: "
                         f"{checkpoint.keys()}") from e

    if cfg_dict["algorithm_config"]["model"]["architecture"] == "UNet":
        model = FCNModule.load_from_checkpoint(path)
    else:
        raise ValueError(f"Invalid model architecture: {cfg_dict['algorithm_config']['model']['architecture']}")
    return model, cfg_dict


# ---- careamics/careamist.py
class CAREamist:
    def __init__(self, source, work_dir=None, experiment_name="CAREamics"):
        self.work_dir = Path(work_dir) if work_dir is not None else Path.cwd()
        if isinstance(source, Path) and source.exists():
            self.model, self.cfg = load_pretrained(source)
        else:
            self.cfg = source
            self.model = FCNModule(algorithm_config=self.cfg["algorithm_config"])
        self.checkpoint_callback = ModelCheckpoint(dirpath=self.work_dir / "checkpoints",
                                                   filename=experiment_name, save_last=False)
        self.trainer = Trainer(max_epochs=self.cfg["training_config"]["num_epochs"] if isinstance(self.cfg, dict)
                               and "training_config" in self.cfg else 1,
                               accelerator="auto", logger=False, enable_progress_bar=False,
                               enable_model_summary=False, callbacks=[self.checkpoint_callback])

    def train(self, train_source, val_source=None):
        dataset = InMemoryDataset(train_source, patch_size=tuple(self.cfg["data_config"]["patch_size"]))
        loader = DataLoader(dataset, batch_size=self.cfg["data_config"]["batch_size"], shuffle=True)
        self.trainer.fit(self.model, train_dataloaders=loader)

    def predict(self, source):
        self.model.eval()
        with torch.no_grad():
            x = torch.from_numpy(((source - source.mean()) / source.std()).astype(np.float32))[None, None]
            return self.model(x)[0, 0].numpy()


# ---- the user's notebooks: training on the GPU machine, prediction on a CPU-only laptop
@contextlib.contextmanager
def storages_tagged_as_cuda():
    """What torch.save writes on the GPU machine: every storage tagged 'cuda:0'."""
    orig = torch.serialization.location_tag
    torch.serialization.location_tag = lambda storage: "cuda:0"
    try:
        yield
    finally:
        torch.serialization.location_tag = orig


def sem_image(size=96, seed=0):
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:size, 0:size]
    clean = np.sin(xx / 6.0) * np.cos(yy / 9.0) * 50 + 120
    return (clean + rng.normal(0, 20, clean.shape)).astype(np.float32)


def main():
    torch.manual_seed(0)
    work_dir = Path(tempfile.mkdtemp())
    config = {
        "experiment_name": "sem_n2v_1epoch",
        "algorithm_config": {"algorithm": "n2v", "loss": "n2v",
                             "model": {"architecture": "UNet", "conv_dims": 2, "depth": 2, "num_channels_init": 16},
                             "optimizer": {"name": "Adam", "parameters": {"lr": 1e-3}}},
        "data_config": {"data_type": "array", "axes": "YX", "patch_size": [32, 32], "batch_size": 4},
        "training_config": {"num_epochs": 1},
    }
    image = sem_image()

    # on the Linux machine with a GPU
    careamist = CAREamist(source=config, work_dir=work_dir, experiment_name="sem_n2v_1epoch")
    with storages_tagged_as_cuda():
        careamist.train(train_source=image)
    ckpt = work_dir / "checkpoints" / "sem_n2v_1epoch.ckpt"
    print("checkpoint written:", ckpt.name, ckpt.exists())

    # on the CPU-only laptop
    careamist = CAREamist(ckpt)
    prediction = careamist.predict(image)
    print("denoised image", prediction.shape)


if __name__ == "__main__":
    main()

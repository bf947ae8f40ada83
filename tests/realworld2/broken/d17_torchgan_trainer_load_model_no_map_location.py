"""torchgan-style Trainer.load_model: a GAN checkpoint written on a GPU is loaded without map_location on a CPU-only box
source: https://github.com/torchgan/torchgan/pull/141
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 83
root-cause: line 83
expect: DG010
"""
import os
import tempfile

import torch
import torch.nn as nn
from torch.optim import Adam


class DCGANGenerator(nn.Module):
    def __init__(self, encoding_dims=16, out_channels=1, step_channels=8):
        super().__init__()
        self.encoding_dims = encoding_dims
        self.model = nn.Sequential(
            nn.ConvTranspose2d(encoding_dims, step_channels * 2, 4, 1, 0), nn.BatchNorm2d(step_channels * 2),
            nn.LeakyReLU(0.2), nn.ConvTranspose2d(step_channels * 2, out_channels, 4, 2, 1), nn.Tanh())

    def forward(self, x):
        return self.model(x.view(-1, self.encoding_dims, 1, 1))


class DCGANDiscriminator(nn.Module):
    def __init__(self, in_channels=1, step_channels=8):
        super().__init__()
        self.model = nn.Sequential(
            nn.Conv2d(in_channels, step_channels, 4, 2, 1), nn.LeakyReLU(0.2),
            nn.Conv2d(step_channels, 1, 4, 1, 0))

    def forward(self, x):
        return self.model(x).view(-1)


def _write_checkpoint_from_gpu_run(obj, path):
    """The released checkpoint was written by a CUDA training run; its storages carry the 'cuda:0' tag.
    (No GPU here, so the tag that torch.save records is reproduced by patching location_tag.)"""
    original = torch.serialization.location_tag
    torch.serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save(obj, path)
    finally:
        torch.serialization.location_tag = original


class Trainer(object):
    def __init__(self, models, checkpoints="./model/gan", retain_checkpoints=5, device=None):
        self.device = device if device is not None else torch.device(
            "cuda:0" if torch.cuda.is_available() else "cpu")
        self.model_names = []
        self.optimizer_names = []
        for key, model in models.items():
            self.model_names.append(key)
            setattr(self, key, model["name"](**model.get("args", {})).to(self.device))
            opt_name = "optimizer_{}".format(key)
            self.optimizer_names.append(opt_name)
            setattr(self, opt_name, Adam(getattr(self, key).parameters(), lr=0.0002, betas=(0.5, 0.999)))
        self.checkpoints = checkpoints
        self.retain_checkpoints = retain_checkpoints
        self.last_retained_checkpoint = 0
        self.start_epoch = 0

    def save_model(self, epoch, save_items=None, on_gpu_machine=False):
        save_path = self.checkpoints + str(self.last_retained_checkpoint) + ".model"
        model = {"epoch": epoch + 1}
        for save_item in self.model_names + self.optimizer_names:
            model.update({save_item: getattr(self, save_item).state_dict()})
        if on_gpu_machine:
            _write_checkpoint_from_gpu_run(model, save_path)
        else:
            torch.save(model, save_path)
        return save_path

    def load_model(self, load_path="", load_items=None):
        if load_path == "":
            load_path = self.checkpoints + str(self.last_retained_checkpoint) + ".model"
        print("Loading Model From '{}'".format(load_path))
        try:
            checkpoint = torch.load(load_path)  # root-cause # fails-here
            self.start_epoch = checkpoint["epoch"]
            for load_item in self.model_names + self.optimizer_names:
                getattr(self, load_item).load_state_dict(checkpoint[load_item])
        except FileNotFoundError:
            print("Model doesn't exist at {}".format(load_path))


network = {
    "generator": {"name": DCGANGenerator, "args": {"encoding_dims": 16}},
    "discriminator": {"name": DCGANDiscriminator, "args": {}},
}

if __name__ == "__main__":
    ckpt_dir = tempfile.mkdtemp()
    # training run (on the author's GPU machine)
    trainer = Trainer(network, checkpoints=os.path.join(ckpt_dir, "gan"))
    path = trainer.save_model(epoch=9, on_gpu_machine=True)
    # evaluation on a laptop
    trainer = Trainer(network, checkpoints=os.path.join(ckpt_dir, "gan"))
    trainer.load_model(path)
    with torch.no_grad():
        samples = trainer.generator(torch.randn(4, 16, device=trainer.device))
    print("resumed at epoch", trainer.start_epoch, tuple(samples.shape))

"""HRFAE-style Trainer.load_checkpoint with map_location={'cuda:0': 'cpu'} for a checkpoint written on a GPU
source: https://github.com/InterDigitalInc/HRFAE/issues/3
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.
outcome: ok
root-cause: none
expect: none
"""
import os
import tempfile

import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(3, 8, 3, 2, 1), nn.ReLU(), nn.Conv2d(8, 16, 3, 2, 1))

    def forward(self, x):
        return self.conv(x)


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.deconv = nn.Sequential(nn.ConvTranspose2d(17, 8, 4, 2, 1), nn.ReLU(),
                                    nn.ConvTranspose2d(8, 3, 4, 2, 1), nn.Tanh())

    def forward(self, z, age):
        age_map = age.view(-1, 1, 1, 1).expand(-1, 1, z.size(2), z.size(3))
        return self.deconv(torch.cat([z, age_map], dim=1))


def write_gpu_checkpoint(state, path):
    """The released checkpoint comes from a CUDA run: its storages are tagged 'cuda:0'."""
    original = torch.serialization.location_tag
    torch.serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save(state, path)
    finally:
        torch.serialization.location_tag = original


class Trainer(nn.Module):
    def __init__(self, config):
        super(Trainer, self).__init__()
        self.enc = Encoder()
        self.dec = Decoder()
        self.gen_opt = torch.optim.Adam(list(self.enc.parameters()) + list(self.dec.parameters()),
                                        lr=config['lr'], betas=(0.5, 0.999))

    def test_eval(self, x, target_age):
        return self.dec(self.enc(x), target_age)

    def save_checkpoint(self, n_epoch, log_dir):
        checkpoint_state = {'n_epoch': n_epoch, 'enc_state_dict': self.enc.state_dict(),
                            'dec_state_dict': self.dec.state_dict(),
                            'gen_opt_state_dict': self.gen_opt.state_dict()}
        write_gpu_checkpoint(checkpoint_state, log_dir + 'checkpoint')

    def load_checkpoint(self, checkpoint_path, device={'cuda:0': 'cpu'}):
        state_dict = torch.load(checkpoint_path, device)
        self.enc.load_state_dict(state_dict['enc_state_dict'])
        self.dec.load_state_dict(state_dict['dec_state_dict'])
        self.gen_opt.load_state_dict(state_dict['gen_opt_state_dict'])
        return state_dict['n_epoch'] + 1


if __name__ == '__main__':
    log_dir = tempfile.mkdtemp() + os.sep
    config = {'lr': 1e-4}
    Trainer(config).save_checkpoint(19, log_dir)
    device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
    trainer = Trainer(config)
    if torch.cuda.is_available():
        epoch_0 = trainer.load_checkpoint(log_dir + 'checkpoint', device={'cuda:0': 'cuda:0'})
    else:
        epoch_0 = trainer.load_checkpoint(log_dir + 'checkpoint')
    trainer.to(device)
    with torch.no_grad():
        image = torch.rand(2, 3, 32, 32, device=device) * 2 - 1
        out = trainer.test_eval(image, torch.tensor([30.0, 60.0], device=device) / 100)
    print('resumed from epoch', epoch_0, tuple(out.shape))

"""Conditional GAN on MNIST-shaped data (mrshahabian/GAN Conditional_GAN layout: params.py holds criterion = nn.BCEWithLogitsLoss() and the hyper-parameters, models and helpers in their own modules): utils.make_targets builds the real/fake targets with torch.full(shape, 1) from the integer labels in params.py, so they are int64 and BCEWithLogitsLoss in train.py cannot write its float result into them
source: https://github.com/mrshahabian/GAN/blob/aa197b5bb1454658e1956162c6396f8d54cee1c0/Conditional_GAN/params.py
reported-error: (the repository file defines criterion = nn.BCEWithLogitsLoss() used with ones_like/zeros_like targets; integer targets from torch.full fail with RuntimeError: result type Float can't be cast to the desired output type Long)
outcome: RuntimeError: result type Float can't be cast to the desired output type Long at train.py:35
root-cause: utils.py:19
expect: DG007
"""
import torch

from models import Discriminator, Generator
from params import batch_size, criterion, device, fake_label, lr, mnist_shape, n_classes, n_epochs, real_label, z_dim
from utils import combine_vectors, get_noise, get_one_hot_labels, make_targets

torch.manual_seed(0)
gen = Generator(input_dim=z_dim + n_classes).to(device)
disc = Discriminator(im_chan=mnist_shape[0] + n_classes).to(device)
gen_opt = torch.optim.Adam(gen.parameters(), lr=lr)
disc_opt = torch.optim.Adam(disc.parameters(), lr=lr)

# a stand-in for DataLoader(MNIST(...)): 3 batches of normalised digits
dataloader = [(torch.rand(batch_size, *mnist_shape) * 2 - 1, torch.randint(0, n_classes, (batch_size,))) for _ in range(3)]

for epoch in range(n_epochs):
    for real, labels in dataloader:
        cur_batch_size = len(real)
        real = real.to(device)
        one_hot_labels = get_one_hot_labels(labels.to(device), n_classes)
        image_one_hot_labels = one_hot_labels[:, :, None, None].repeat(1, 1, mnist_shape[1], mnist_shape[2])

        disc_opt.zero_grad()
        fake_noise = get_noise(cur_batch_size, z_dim, device=device)
        fake = gen(combine_vectors(fake_noise, one_hot_labels))
        disc_fake_pred = disc(combine_vectors(fake.detach(), image_one_hot_labels))
        disc_real_pred = disc(combine_vectors(real, image_one_hot_labels))
        disc_fake_loss = criterion(disc_fake_pred, make_targets(disc_fake_pred, fake_label))  # fails-here
        disc_real_loss = criterion(disc_real_pred, make_targets(disc_real_pred, real_label))
        disc_loss = (disc_fake_loss + disc_real_loss) / 2
        disc_loss.backward()
        disc_opt.step()

        gen_opt.zero_grad()
        disc_fake_pred = disc(combine_vectors(fake, image_one_hot_labels))
        gen_loss = criterion(disc_fake_pred, make_targets(disc_fake_pred, real_label))
        gen_loss.backward()
        gen_opt.step()
    print(f"epoch {epoch}: disc {disc_loss.item():.4f} gen {gen_loss.item():.4f}")

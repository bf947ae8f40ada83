"""InfoGAN training: real_label = 1 (int) makes torch.full build an int64 label for BCELoss
source: https://github.com/Natsu6767/InfoGAN-PyTorch/pull/8
reported-error: RuntimeError: Found dtype Long but expected Float
outcome: RuntimeError: Found dtype Long but expected Float at line 75
root-cause: line 60
expect: DG007
"""
import torch
import torch.nn as nn
import torch.optim as optim

params = {'batch_size': 8, 'num_z': 16, 'num_dis_c': 1, 'dis_c_dim': 10, 'learning_rate': 2e-4,
          'beta1': 0.5, 'beta2': 0.999, 'num_epochs': 1}
device = torch.device("cpu")


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(nn.Linear(26, 64), nn.ReLU(), nn.Linear(64, 28 * 28), nn.Tanh())

    def forward(self, x):
        return self.main(x.view(x.size(0), -1)).view(-1, 1, 28, 28)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(nn.Conv2d(1, 16, 4, 2, 1), nn.LeakyReLU(0.1, inplace=True))

    def forward(self, x):
        return self.main(x)


class DHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(16, 1, 14)

    def forward(self, x):
        return torch.sigmoid(self.conv(x))


def noise_sample(n_dis_c, dis_c_dim, n_z, batch_size, device):
    z = torch.randn(batch_size, n_z, device=device)
    idx = torch.randint(0, dis_c_dim, (batch_size,))
    dis_c = torch.zeros(batch_size, n_dis_c, dis_c_dim, device=device)
    dis_c[torch.arange(batch_size), 0, idx] = 1.0
    return torch.cat((z, dis_c.view(batch_size, -1)), dim=1), idx


netG = Generator().to(device)
discriminator = Discriminator().to(device)
netD = DHead().to(device)

criterionD = nn.BCELoss()
optimD = optim.Adam([{'params': discriminator.parameters()}, {'params': netD.parameters()}],
                    lr=params['learning_rate'], betas=(params['beta1'], params['beta2']))

real_label = 1  # root-cause
fake_label = 0

dataloader = [(torch.randn(params['batch_size'], 1, 28, 28), torch.zeros(params['batch_size'])) for _ in range(2)]

for epoch in range(params['num_epochs']):
    for i, (data, _) in enumerate(dataloader, 0):
        b_size = data.size(0)
        real_data = data.to(device)

        optimD.zero_grad()
        # Real data
        label = torch.full((b_size, ), real_label, device=device)  # root-cause-alt
        output1 = discriminator(real_data)
        probs_real = netD(output1).view(-1)
        loss_real = criterionD(probs_real, label)  # fails-here
        loss_real.backward()

        # Fake data
        label.fill_(fake_label)
        noise, idx = noise_sample(params['num_dis_c'], params['dis_c_dim'], params['num_z'], b_size, device)
        fake_data = netG(noise)
        output2 = discriminator(fake_data.detach())
        probs_fake = netD(output2).view(-1)
        loss_fake = criterionD(probs_fake, label)
        loss_fake.backward()
        optimD.step()

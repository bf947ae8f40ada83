from torch import nn


class Generator(nn.Module):
    def __init__(self, input_dim=10, im_chan=1, hidden_dim=16):
        super().__init__()
        self.input_dim = input_dim
        self.gen = nn.Sequential(
            nn.ConvTranspose2d(input_dim, hidden_dim * 4, kernel_size=3, stride=2),
            nn.BatchNorm2d(hidden_dim * 4), nn.ReLU(inplace=True),
            nn.ConvTranspose2d(hidden_dim * 4, hidden_dim * 2, kernel_size=4, stride=1),
            nn.BatchNorm2d(hidden_dim * 2), nn.ReLU(inplace=True),
            nn.ConvTranspose2d(hidden_dim * 2, hidden_dim, kernel_size=3, stride=2),
            nn.BatchNorm2d(hidden_dim), nn.ReLU(inplace=True),
            nn.ConvTranspose2d(hidden_dim, im_chan, kernel_size=4, stride=2),
            nn.Tanh(),
        )

    def forward(self, noise):
        return self.gen(noise.view(len(noise), self.input_dim, 1, 1))


class Discriminator(nn.Module):
    def __init__(self, im_chan=1, hidden_dim=16):
        super().__init__()
        self.disc = nn.Sequential(
            nn.Conv2d(im_chan, hidden_dim, 4, 2), nn.BatchNorm2d(hidden_dim), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(hidden_dim, hidden_dim * 2, 4, 2), nn.BatchNorm2d(hidden_dim * 2), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(hidden_dim * 2, 1, 4, 2),
        )

    def forward(self, image):
        return self.disc(image).view(len(image), -1)

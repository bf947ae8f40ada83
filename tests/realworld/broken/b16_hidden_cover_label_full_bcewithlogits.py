"""HiDDeN discriminator targets built with torch.full from an int cover_label go into BCEWithLogitsLoss
source: https://github.com/ando-khachatryan/HiDDeN/issues/28
reported-error: RuntimeError: result type Float can't be cast to the desired output type Long
outcome: RuntimeError: result type Float can't be cast to the desired output type Long at line 47
root-cause: line 43
expect: DG007
"""
import torch
import torch.nn as nn


class Discriminator(nn.Module):
    def __init__(self, channels=16):
        super(Discriminator, self).__init__()
        self.before_linear = nn.Sequential(nn.Conv2d(3, channels, 3, padding=1), nn.BatchNorm2d(channels), nn.ReLU(),
                                           nn.AdaptiveAvgPool2d(output_size=(1, 1)))
        self.linear = nn.Linear(channels, 1)

    def forward(self, image):
        X = self.before_linear(image)
        X.squeeze_(3).squeeze_(2)
        return self.linear(X)


class Hidden:
    def __init__(self, device):
        self.discriminator = Discriminator().to(device)
        self.optimizer_discrim = torch.optim.Adam(self.discriminator.parameters())
        self.bce_with_logits_loss = nn.BCEWithLogitsLoss().to(device)
        self.device = device
        # Defined the labels used for training the discriminator/adversarial loss
        self.cover_label = 1
        self.encoded_label = 0

    def train_on_batch(self, batch: list):
        images, messages = batch
        batch_size = images.shape[0]
        self.discriminator.train()
        with torch.enable_grad():
            # ---------------- Train the discriminator -----------------------------
            self.optimizer_discrim.zero_grad()
            # train on cover
            d_target_label_cover = torch.full((batch_size, 1), self.cover_label, device=self.device)  # root-cause
            d_target_label_encoded = torch.full((batch_size, 1), self.encoded_label, device=self.device)

            d_on_cover = self.discriminator(images)
            d_loss_on_cover = self.bce_with_logits_loss(d_on_cover, d_target_label_cover)  # fails-here
            d_loss_on_cover.backward()

            encoded_images = images + 0.01 * torch.randn_like(images)
            d_on_encoded = self.discriminator(encoded_images.detach())
            d_loss_on_encoded = self.bce_with_logits_loss(d_on_encoded, d_target_label_encoded)
            d_loss_on_encoded.backward()
            self.optimizer_discrim.step()
        return d_loss_on_cover.item() + d_loss_on_encoded.item()


if __name__ == '__main__':
    model = Hidden(torch.device('cpu'))
    images = torch.rand(4, 3, 16, 16) * 2 - 1
    messages = torch.randint(0, 2, (4, 30)).float()
    print(model.train_on_batch([images, messages]))

from torch import nn

mnist_shape = (1, 28, 28)
n_classes = 10

criterion = nn.BCEWithLogitsLoss()
n_epochs = 2
z_dim = 64
display_step = 500
batch_size = 16
lr = 0.0002
device = "cpu"
real_label = 1
fake_label = 0

"""Minimal spiking reservoir (BindsNET example): recorded spike counts (integer tensor) are used directly as features for a float32 logistic-regression readout
source: https://github.com/BindsNET/bindsnet/issues/201
reported-error: RuntimeError: Expected object of scalar type Long but got scalar type Float for argument #2 'mat2' (from self.linear(x) in the readout)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Long and Float at line 42
root-cause: line 53
expect: DG004
"""
import torch
import torch.nn as nn

n_neurons, time, n_train = 100, 50, 40


class Reservoir:
    """Stands in for bindsnet's Network(Input -> LIFNodes) with a spike Monitor."""

    def __init__(self, n_in=28 * 28, n_neurons=n_neurons, thresh=2.0):
        self.w = 0.5 * torch.rand(n_in, n_neurons)
        self.thresh = thresh

    def run(self, spikes_in):
        v = torch.zeros(n_neurons)
        out = torch.zeros(spikes_in.shape[0], n_neurons, dtype=torch.long)
        for t in range(spikes_in.shape[0]):
            v = 0.9 * v + spikes_in[t].float() @ self.w
            fired = v > self.thresh
            out[t] = fired.long()
            v[fired] = 0.0
        return out


def poisson(datum, time):
    return (torch.rand(time, datum.numel()) < datum.flatten() * 0.25).long()


class NN(nn.Module):
    def __init__(self, input_size, num_classes):
        super(NN, self).__init__()
        self.linear = nn.Linear(input_size, num_classes)

    def forward(self, x):
        return self.linear(x)  # fails-here


if __name__ == "__main__":
    torch.manual_seed(0)
    images = torch.rand(n_train, 28 * 28)
    labels = torch.randint(0, 10, (n_train,))
    network = Reservoir()
    training_pairs = []
    for i, (datum, label) in enumerate(zip(images, labels)):
        spikes = network.run(poisson(datum, time))
        training_pairs.append([spikes.sum(0), label])  # root-cause
        if (i + 1) % 10 == 0:
            print(f"Train progress: ({i + 1} / {n_train})")
    model = NN(n_neurons, 10)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-4, momentum=0.9)
    for epoch in range(2):
        for s, label in training_pairs:
            optimizer.zero_grad()
            output = model(s)
            loss = criterion(output.unsqueeze(0), label.unsqueeze(0))
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")

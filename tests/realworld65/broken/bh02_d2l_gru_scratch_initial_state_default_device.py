"""d2l-style GRU language model from scratch trained with Trainer(num_gpus=1): the trainer moves the model and every batch to the GPU, but GRUScratch.forward makes its initial hidden state with torch.zeros((batch, num_hiddens)) on the default (CPU) device, so the first gate computation mixes the GPU input with a CPU state
source: https://github.com/d2l-ai/d2l-en/pull/2233
reported-error: "if H is None: H = torch.zeros(inputs.shape[1], self.num_hiddens) -- The above line should be changed to: if H is None: H = torch.zeros(inputs.shape[1], self.num_hiddens, device=inputs.device)" (GRU from scratch in section 10.2: the initial state lands on the CPU while the model and the batch are on the GPU; Expected all tensors to be on the same device)
outcome: RuntimeError: Tensor on device cpu is not on the expected device meta! at line 57
root-cause: line 54
expect: DG009
"""
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
rng = np.random.default_rng(0)


def gpu(i=0):
    # d2l.gpu(i); the "meta" device stands in for torch.device(f"cuda:{i}") on this CPU-only machine
    return torch.device("meta")


class TimeMachine:
    """Character-level corpus (synthetic text instead of the downloaded book), windows of num_steps."""

    def __init__(self, batch_size, num_steps, num_train=600, num_val=100):
        words = ["time", "traveller", "machine", "the", "of", "and", "a", "was", "in", "it"]
        text = " ".join(rng.choice(words, 3000))
        self.vocab = sorted(set(text))
        corpus = [self.vocab.index(c) for c in text]
        array = torch.tensor([corpus[i:i + num_steps + 1] for i in range(len(corpus) - num_steps)])
        self.X, self.Y = array[:, :-1], array[:, 1:]
        self.batch_size, self.num_train, self.num_val = batch_size, num_train, num_val

    def train_dataloader(self):
        idx = slice(0, self.num_train)
        dataset = torch.utils.data.TensorDataset(self.X[idx], self.Y[idx])
        return torch.utils.data.DataLoader(dataset, self.batch_size, shuffle=True)


class GRUScratch(nn.Module):
    def __init__(self, num_inputs, num_hiddens, sigma=0.01):
        super().__init__()
        self.num_hiddens = num_hiddens
        init_weight = lambda *shape: nn.Parameter(torch.randn(*shape) * sigma)
        triple = lambda: (init_weight(num_inputs, num_hiddens), init_weight(num_hiddens, num_hiddens),
                          nn.Parameter(torch.zeros(num_hiddens)))
        self.W_xz, self.W_hz, self.b_z = triple()  # Update gate
        self.W_xr, self.W_hr, self.b_r = triple()  # Reset gate
        self.W_xh, self.W_hh, self.b_h = triple()  # Candidate hidden state

    def forward(self, inputs, H=None):
        if H is None:
            # Initial state with shape: (batch_size, num_hiddens)
            H = torch.zeros((inputs.shape[1], self.num_hiddens))  # root-cause
        outputs = []
        for X in inputs:
            Z = torch.sigmoid(torch.matmul(X, self.W_xz) + torch.matmul(H, self.W_hz) + self.b_z)  # fails-here
            R = torch.sigmoid(torch.matmul(X, self.W_xr) + torch.matmul(H, self.W_hr) + self.b_r)
            H_tilde = torch.tanh(torch.matmul(X, self.W_xh) + torch.matmul(R * H, self.W_hh) + self.b_h)
            H = Z * H + (1 - Z) * H_tilde
            outputs.append(H)
        return outputs, H


class RNNLMScratch(nn.Module):
    def __init__(self, rnn, vocab_size, lr=0.01, sigma=0.01):
        super().__init__()
        self.rnn, self.vocab_size, self.lr = rnn, vocab_size, lr
        self.W_hq = nn.Parameter(torch.randn(rnn.num_hiddens, vocab_size) * sigma)
        self.b_q = nn.Parameter(torch.zeros(vocab_size))

    def one_hot(self, X):
        # Output shape: (num_steps, batch_size, vocab_size)
        return F.one_hot(X.T, self.vocab_size).type(torch.float32)

    def output_layer(self, rnn_outputs):
        outputs = [torch.matmul(H, self.W_hq) + self.b_q for H in rnn_outputs]
        return torch.stack(outputs, 1)

    def forward(self, X, state=None):
        embs = self.one_hot(X)
        rnn_outputs, _ = self.rnn(embs, state)
        return self.output_layer(rnn_outputs)

    def loss(self, Y_hat, Y):
        return F.cross_entropy(Y_hat.reshape((-1, Y_hat.shape[-1])), Y.reshape((-1,)))

    def training_step(self, batch):
        return self.loss(self(*batch[:-1]), batch[-1])

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), self.lr)


class Trainer:
    def __init__(self, max_epochs, num_gpus=0, gradient_clip_val=0):
        self.max_epochs, self.gradient_clip_val = max_epochs, gradient_clip_val
        self.gpus = [gpu(i) for i in range(num_gpus)]

    def prepare_batch(self, batch):
        if self.gpus:
            batch = [a.to(self.gpus[0]) for a in batch]
        return batch

    def prepare_model(self, model):
        if self.gpus:
            model.to(self.gpus[0])
        self.model = model

    def clip_gradients(self, grad_clip_val, model):
        params = [p for p in model.parameters() if p.requires_grad]
        norm = torch.sqrt(sum(torch.sum((p.grad ** 2)) for p in params))
        if norm > grad_clip_val:
            for param in params:
                param.grad[:] *= grad_clip_val / norm

    def fit(self, model, data):
        self.prepare_model(model)
        self.optim = model.configure_optimizers()
        for epoch in range(self.max_epochs):
            for batch in data.train_dataloader():
                loss = self.model.training_step(self.prepare_batch(batch))
                self.optim.zero_grad()
                loss.backward()
                if self.gradient_clip_val > 0:
                    self.clip_gradients(self.gradient_clip_val, self.model)
                self.optim.step()
            print(f"epoch {epoch + 1}: perplexity {torch.exp(loss).item():.2f}")


data = TimeMachine(batch_size=64, num_steps=16)
gru = GRUScratch(num_inputs=len(data.vocab), num_hiddens=32)
model = RNNLMScratch(gru, vocab_size=len(data.vocab), lr=4)
trainer = Trainer(max_epochs=3, gradient_clip_val=1, num_gpus=1)
trainer.fit(model, data)

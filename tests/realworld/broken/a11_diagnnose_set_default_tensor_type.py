"""Language-model probing script uses the deprecated torch.set_default_tensor_type to pick the device
source: https://github.com/i-machine-think/diagNNose/issues/74
reported-error: silent
outcome: ok (UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() as alternatives.)
root-cause: line 15
expect: DG002
"""
import numpy as np
import torch
import torch.nn as nn

if torch.cuda.is_available():
    torch.set_default_tensor_type('torch.cuda.FloatTensor')  # root-cause-alt
else:
    torch.set_default_tensor_type('torch.FloatTensor')  # root-cause


class ForwardLSTM(nn.Module):
    def __init__(self, ninp=16, nhid=32, ntoken=50):
        super().__init__()
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid, batch_first=True)
        self.decoder = nn.Linear(nhid, ntoken)

    def forward(self, input_ids):
        out, _ = self.rnn(self.encoder(input_ids))
        return self.decoder(out)


def extract(model, corpus, batch_size=4):
    activations = []
    for i in range(0, len(corpus), batch_size):
        batch = torch.tensor(corpus[i:i + batch_size])
        with torch.no_grad():
            activations.append(model(batch).mean(-1))
    return torch.cat(activations)


if __name__ == "__main__":
    corpus = np.random.randint(0, 50, size=(12, 7)).tolist()
    model = ForwardLSTM()
    acts = extract(model, corpus)
    print(acts.shape, acts.dtype, acts.device)

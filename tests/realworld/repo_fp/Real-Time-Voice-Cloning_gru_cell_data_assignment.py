"""Real-Time-Voice-Cloning's WaveRNN builds GRUCells for generation and points their parameters at the GRU's own tensors

source: https://github.com/CorentinJ/Real-Time-Voice-Cloning/blob/865eba8826bb6d76721a9d828a546724779c23ab/vocoder/models/fatchord_version.py#L266
(reported there twice, and as a copy at https://github.com/CorentinJ/Real-Time-Voice-Cloning/blob/865eba8826bb6d76721a9d828a546724779c23ab/vocoder_train.py#L53;
the forward is fatchord_version.py#L198, the model is moved at vocoder/train.py#L41)
false-alarm: DG009 at line 38 (the forward is line 60): `get_gru_cell` creates `nn.GRUCell(...)` on the default device, but the next
four lines assign `gru_cell.weight_hh.data = gru.weight_hh_l0.data` (and weight_ih, bias_hh, bias_ih): a `.data`
assignment makes each parameter *be* the GRU's tensor, with its storage, dtype and device (it is how
`Module.cuda()` itself moves parameters: torch/nn/modules/module.py `_apply`, `param.data = param_applied`).
After `model.cuda()` the GRU's tensors are on the GPU, so the cell's are too, and `rnn1(x, h1)` with the `.cuda()`
inputs of lines 51-53 runs on one device. This reduction runs on the CPU (exit 0).
"""
# Reduction: WaveRNN keeps its input layer, one GRU and the output layer; the upsampling network, the second GRU and
# the aux splits are dropped, and generate() is called from train() (gen_testset in the repo).
import torch
import torch.nn as nn


class WaveRNN(nn.Module):
    def __init__(self, rnn_dims=16, feat_dims=8, n_classes=32):
        super().__init__()
        self.rnn_dims = rnn_dims
        self.I = nn.Linear(feat_dims + 1, rnn_dims)
        self.rnn1 = nn.GRU(rnn_dims, rnn_dims, batch_first=True)
        self.fc3 = nn.Linear(rnn_dims, n_classes)

    def forward(self, x, mels):
        bsize = x.size(0)
        if torch.cuda.is_available():
            h1 = torch.zeros(1, bsize, self.rnn_dims).cuda()
        else:
            h1 = torch.zeros(1, bsize, self.rnn_dims).cpu()
        x = self.I(torch.cat([x.unsqueeze(-1), mels], dim=2))
        x, _ = self.rnn1(x, h1)
        return self.fc3(x)

    def get_gru_cell(self, gru):
        gru_cell = nn.GRUCell(gru.input_size, gru.hidden_size)
        gru_cell.weight_hh.data = gru.weight_hh_l0.data
        gru_cell.weight_ih.data = gru.weight_ih_l0.data
        gru_cell.bias_hh.data = gru.bias_hh_l0.data
        gru_cell.bias_ih.data = gru.bias_ih_l0.data
        return gru_cell

    def generate(self, mels):
        self.eval()
        rnn1 = self.get_gru_cell(self.rnn1)
        output = []
        with torch.no_grad():
            if torch.cuda.is_available():
                mels = mels.cuda()
                h1 = torch.zeros(mels.size(0), self.rnn_dims).cuda()
                x = torch.zeros(mels.size(0), 1).cuda()
            else:
                mels = mels.cpu()
                h1 = torch.zeros(mels.size(0), self.rnn_dims).cpu()
                x = torch.zeros(mels.size(0), 1).cpu()
            for i in range(mels.size(1)):
                x = self.I(torch.cat([x, mels[:, i, :]], dim=1))
                h1 = rnn1(x, h1)
                logits = self.fc3(h1)
                sample = 2 * torch.distributions.Categorical(logits=logits).sample().float() / 31. - 1.
                output.append(sample)
                x = sample.unsqueeze(-1)
        self.train()
        return torch.stack(output).transpose(0, 1).cpu().numpy()


def train():
    model = WaveRNN()
    if torch.cuda.is_available():
        model = model.cuda()
    optimizer = torch.optim.Adam(model.parameters())
    for step in range(2):
        x, m, y = torch.rand(4, 10) * 2 - 1, torch.randn(4, 10, 8), torch.randint(0, 32, (4, 10))
        if torch.cuda.is_available():
            x, m, y = x.cuda(), m.cuda(), y.cuda()
        y_hat = model(x, m).transpose(1, 2)
        loss = nn.functional.cross_entropy(y_hat, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    wav = model.generate(torch.randn(1, 12, 8))
    print('loss', round(loss.item(), 3), 'generated', wav.shape)


if __name__ == '__main__':
    train()

"""Attention decoder whose length mask is built on self.weights.device, the device of the model's own Parameter, so masking the alignment scores works on CPU and GPU (the merged fix)
source: https://github.com/GRAAL-Research/deepparse/pull/298
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
from typing import List

import torch
import torch.nn as nn


class Decoder(nn.Module):
    def __init__(self, hidden_size=16, output_size=9):
        super().__init__()
        self.weights = nn.Parameter(torch.randn(hidden_size, hidden_size) * 0.1)
        self.lstm = nn.LSTM(output_size + hidden_size, hidden_size, batch_first=True)
        self.linear = nn.Linear(hidden_size, output_size)

    def _attention_mechanism_forward(self, decoder_hidden, encoder_outputs, lengths: List[int]):
        alignments_scores = torch.bmm(encoder_outputs @ self.weights, decoder_hidden[0].transpose(0, 1).transpose(1, 2)).squeeze(-1)
        device = self.weights.device
        mask = torch.arange(max(lengths), device=device)[None, :] < torch.tensor(lengths, device=device)[:, None]
        alignments_scores = alignments_scores.masked_fill(~mask, float("-inf"))
        attention_weights = torch.softmax(alignments_scores, dim=1)
        return torch.bmm(attention_weights.unsqueeze(1), encoder_outputs)

    def forward(self, to_predict, hidden, encoder_outputs, lengths):
        context = self._attention_mechanism_forward(hidden, encoder_outputs, lengths)
        out, hidden = self.lstm(torch.cat([to_predict, context], dim=-1), hidden)
        return self.linear(out.squeeze(1)), hidden


if __name__ == "__main__":
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    encoder = nn.LSTM(12, 16, batch_first=True).to(device)
    decoder = Decoder().to(device)
    optimizer = torch.optim.SGD(list(encoder.parameters()) + list(decoder.parameters()), lr=0.01)
    lengths = [6, 4, 5]
    to_predict = torch.randn(3, 6, 12, device=device)
    target = torch.randint(0, 9, (3, 6), device=device)
    for epoch in range(2):
        encoder_outputs, hidden = encoder(to_predict)
        decoder_input = torch.zeros(3, 1, 9, device=device)
        outputs = []
        for _ in range(max(lengths)):
            logits, hidden = decoder(decoder_input, hidden, encoder_outputs, lengths)
            outputs.append(logits)
            decoder_input = torch.softmax(logits, -1).unsqueeze(1)
        loss = nn.functional.cross_entropy(torch.stack(outputs, 1).reshape(-1, 9), target.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")

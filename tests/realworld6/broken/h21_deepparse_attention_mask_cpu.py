"""Seq2seq address parser with an attention decoder (deepparse style): the length mask is built with torch.arange and torch.tensor(lengths, device="cpu") while the alignment scores live on the model's device
source: https://github.com/GRAAL-Research/deepparse/pull/298
reported-error: device error on GPU in Decoder._attention_mechanism_forward when masking alignments_scores with the CPU length mask (attention models only worked on CPU)
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (masked_fill_ of the CUDA scores with the CPU mask) at line 37; on CPU: ok
root-cause: line 36
expect: DG009
"""
from typing import List

import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, input_size: int, hidden_size: int):
        super().__init__()
        self.lstm = nn.LSTM(input_size, hidden_size, batch_first=True)

    def forward(self, to_predict: torch.Tensor, lengths: List[int]):
        packed = nn.utils.rnn.pack_padded_sequence(to_predict, lengths, batch_first=True, enforce_sorted=False)
        out, hidden = self.lstm(packed)
        out, _ = nn.utils.rnn.pad_packed_sequence(out, batch_first=True)
        return out, hidden


class Decoder(nn.Module):
    def __init__(self, hidden_size: int, output_size: int):
        super().__init__()
        self.lstm = nn.LSTM(output_size + hidden_size, hidden_size, batch_first=True)
        self.weights = nn.Parameter(torch.randn(hidden_size, hidden_size) * 0.1)
        self.linear = nn.Linear(hidden_size, output_size)

    def _attention_mechanism_forward(self, decoder_hidden, encoder_outputs, lengths: List[int]):
        alignments_scores = torch.bmm(encoder_outputs @ self.weights, decoder_hidden[0].transpose(0, 1).transpose(1, 2)).squeeze(-1)
        longest_sequence_length = max(lengths)
        mask = torch.arange(longest_sequence_length)[None, :] < torch.tensor(lengths, device="cpu")[:, None]  # root-cause
        alignments_scores.masked_fill_(~mask, float("-inf"))  # fails-here
        attention_weights = torch.softmax(alignments_scores, dim=1)
        return torch.bmm(attention_weights.unsqueeze(1), encoder_outputs), attention_weights

    def forward(self, to_predict, hidden, encoder_outputs, lengths):
        context, attn = self._attention_mechanism_forward(hidden, encoder_outputs, lengths)
        out, hidden = self.lstm(torch.cat([to_predict, context], dim=-1), hidden)
        return self.linear(out.squeeze(1)), hidden, attn


class Seq2SeqModel(nn.Module):
    def __init__(self, input_size=12, hidden_size=16, output_size=9):
        super().__init__()
        self.output_size = output_size
        self.encoder = Encoder(input_size, hidden_size)
        self.decoder = Decoder(hidden_size, output_size)

    def forward(self, to_predict, lengths, target=None):
        encoder_outputs, hidden = self.encoder(to_predict, lengths)
        batch_size = to_predict.size(0)
        decoder_input = torch.zeros(batch_size, 1, self.output_size, device=to_predict.device)
        outputs = []
        for _ in range(max(lengths)):
            logits, hidden, _ = self.decoder(decoder_input, hidden, encoder_outputs, lengths)
            outputs.append(logits)
            decoder_input = torch.softmax(logits, -1).unsqueeze(1)
        return torch.stack(outputs, 1)


if __name__ == "__main__":
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    model = Seq2SeqModel().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    lengths = [6, 4, 5]
    to_predict = torch.randn(3, max(lengths), 12, device=device)
    target = torch.randint(0, 9, (3, max(lengths)), device=device)
    for epoch in range(2):
        output = model(to_predict, lengths)
        loss = nn.functional.cross_entropy(output.reshape(-1, 9), target.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")

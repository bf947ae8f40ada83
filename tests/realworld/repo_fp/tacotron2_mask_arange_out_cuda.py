"""Tacotron 2's padding mask is built on the GPU through `torch.arange(..., out=torch.cuda.LongTensor(n))`

source: https://github.com/NVIDIA/tacotron2/blob/185cd24e046cc1304b4f8e564734d2498c6e2e6f/inference.ipynb (cell 8, line 2,
`model = load_model(hparams)`), root named at utils.py#L8, failure named at model.py#L493
false-alarm: DG009 at line 30: the finding says that the mask `parse_output` applies with `masked_fill_`
(line 69) is a CPU tensor made by get_mask_from_lengths' arange, while the outputs are on CUDA (line 94).
`torch.arange(0, max_len, out=torch.cuda.LongTensor(max_len))` writes into, and returns, its CUDA `out=` tensor
(checked on torch 2.13+cpu with an `out=` tensor on the meta device: the result is that very tensor, on meta),
and `lengths` comes through to_gpu, so the mask is on the GPU with the outputs. Besides, the notebook only
calls `model.inference(...)`, which calls parse_output without output_lengths, so the masked_fill_ branch
never runs there, whatever `hparams.mask_padding` is. Like the original, this script needs a GPU: on the CPU
torch it stops at `.cuda()` in load_model (line 94).
"""
# Reduction: utils.py, model.py, train.py's load_model and the notebook's cells are one file; encoder, decoder
# and postnet are a Linear each (one frame per input symbol); tf.contrib.training.HParams is replaced by argparse
# defaults (values the command line may override, like HParams.parse); text_to_sequence by a character code;
# the notebook's checkpoint is written by the script. The notebook's order (load_model, load_state_dict,
# .cuda().eval().half(), ids to CUDA, model.inference) is kept.
import argparse
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn


def get_mask_from_lengths(lengths):
    max_len = torch.max(lengths).item()
    ids = torch.arange(0, max_len, out=torch.cuda.LongTensor(max_len))
    mask = (ids < lengths.unsqueeze(1)).bool()
    return mask


def to_gpu(x):
    x = x.contiguous()

    if torch.cuda.is_available():
        x = x.cuda(non_blocking=True)
    return torch.autograd.Variable(x)


class Tacotron2(nn.Module):
    def __init__(self, hparams):
        super(Tacotron2, self).__init__()
        self.mask_padding = hparams.mask_padding
        self.n_mel_channels = hparams.n_mel_channels
        self.embedding = nn.Embedding(hparams.n_symbols, hparams.symbols_embedding_dim)
        self.decoder = nn.Linear(hparams.symbols_embedding_dim, hparams.n_mel_channels)
        self.postnet = nn.Linear(hparams.n_mel_channels, hparams.n_mel_channels)
        self.gate = nn.Linear(hparams.n_mel_channels, 1)

    def parse_batch(self, batch):
        text_padded, input_lengths, mel_padded, gate_padded, output_lengths = batch
        text_padded = to_gpu(text_padded).long()
        input_lengths = to_gpu(input_lengths).long()
        max_len = torch.max(input_lengths.data).item()
        mel_padded = to_gpu(mel_padded).float()
        gate_padded = to_gpu(gate_padded).float()
        output_lengths = to_gpu(output_lengths).long()
        return ((text_padded, input_lengths, mel_padded, max_len, output_lengths), (mel_padded, gate_padded))

    def parse_output(self, outputs, output_lengths=None):
        if self.mask_padding and output_lengths is not None:
            mask = ~get_mask_from_lengths(output_lengths)
            mask = mask.expand(self.n_mel_channels, mask.size(0), mask.size(1))
            mask = mask.permute(1, 0, 2)

            outputs[0].data.masked_fill_(mask, 0.0)
            outputs[1].data.masked_fill_(mask, 0.0)
            outputs[2].data.masked_fill_(mask[:, 0, :], 1e3)  # gate energies

        return outputs

    def _decode(self, text_inputs):
        embedded_inputs = self.embedding(text_inputs)
        mel_outputs = self.decoder(embedded_inputs)
        mel_outputs_postnet = mel_outputs + self.postnet(mel_outputs)
        gate_outputs = self.gate(mel_outputs).squeeze(-1)
        alignments = torch.softmax(gate_outputs, dim=-1)
        return (mel_outputs.transpose(1, 2), mel_outputs_postnet.transpose(1, 2), gate_outputs, alignments)

    def forward(self, inputs):
        text_inputs, text_lengths, mels, max_len, output_lengths = inputs
        text_lengths, output_lengths = text_lengths.data, output_lengths.data
        return self.parse_output(list(self._decode(text_inputs)), output_lengths)

    def inference(self, inputs):
        outputs = self.parse_output(list(self._decode(inputs)))
        return outputs


def load_model(hparams):
    model = Tacotron2(hparams).cuda()
    if hparams.fp16_run:
        model.decoder.score_mask_value = np.finfo('float16').min
    return model


def create_hparams(hparams_args=None):
    """Stands in for tf.contrib.training.HParams: defaults that the command line may override."""
    parser = argparse.ArgumentParser()
    parser.add_argument('--fp16_run', type=bool, default=False)
    parser.add_argument('--mask_padding', type=bool, default=True)
    parser.add_argument('--n_symbols', type=int, default=148)
    parser.add_argument('--symbols_embedding_dim', type=int, default=32)
    parser.add_argument('--n_mel_channels', type=int, default=80)
    return parser.parse_args(hparams_args)


hparams = create_hparams()
hparams.sampling_rate = 22050

checkpoint_path = os.path.join(tempfile.mkdtemp(), "tacotron2_statedict.pt")
torch.save({'state_dict': Tacotron2(hparams).state_dict()}, checkpoint_path)

model = load_model(hparams)
model.load_state_dict(torch.load(checkpoint_path)['state_dict'])
_ = model.cuda().eval().half()

text = "Waveglow is really awesome!"
sequence = np.array([[ord(c) % hparams.n_symbols for c in text]])
sequence = torch.autograd.Variable(
    torch.from_numpy(sequence)).cuda().long()

mel_outputs, mel_outputs_postnet, _, alignments = model.inference(sequence)
print(mel_outputs.float().data.cpu().numpy()[0].shape, alignments.float().data.cpu().numpy()[0].T.shape)

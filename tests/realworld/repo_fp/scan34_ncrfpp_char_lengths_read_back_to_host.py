"""NCRF++ hands the character lengths down to the character LSTM, which reads them back to the host for `pack_padded_sequence`

source: https://github.com/jiesutd/NCRFpp/blob/master/model/wordrep.py#L101
(`self.char_feature.get_last_hiddens(char_inputs, char_seq_lengths.cpu().numpy())`; main.py leaves
`char_seq_lengths` on the CPU while the word ids and the model are on the GPU)
false-alarm: DG009 at twelve call sites in main.py, main_parse.py, seqlabel.py and wordsequence.py (scan 34), one
root: the finding said the CUDA model's forward fails with the CPU lengths. Every use of them, through the
sub-modules' forwards, is `.cpu().numpy()`, which reads a tensor from any device; the repository trains and decodes
on an emulated GPU. This reduction runs on the CPU (exit 0).
"""
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence

gpu = torch.cuda.is_available()


class CharLSTM(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(4, 4, batch_first=True)

    def forward(self, x, lens):
        return self.lstm(pack_padded_sequence(x, lens.cpu().numpy(), True))


class WordRep(nn.Module):
    def __init__(self):
        super().__init__()
        self.chars = CharLSTM()

    def forward(self, x, lens):
        return self.chars(x, lens)


model = WordRep()
if gpu:
    model = model.cuda()
x = torch.randn(2, 3, 4)
lens = torch.LongTensor([3, 2])
if gpu:
    x = x.cuda()
out = model(x, lens)
